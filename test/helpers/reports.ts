import type { FastifyInstance } from 'fastify';
import { call, type JsonResponse } from './app.js';
import { appSecretToken, operatorToken, type Tenant } from './seed.js';

/**
 * A history for the reports (issue 38 item 4), written through the API at known instants: a lead's
 * activities are stamped by the app's clock, so the clock is moved before each step (and tokens issued
 * again, since they are checked against the same clock). test/http/reports.test.ts states the answers.
 */
export const REPORTS_NOW = Date.parse('2026-11-20T06:00:00Z');

export const REPORTS_PIPELINES = {
  pipelines: [
    {
      name: 'Sales',
      isPrimary: true,
      stages: [
        { name: 'New', state: 'NEW', closure: 12.5 },
        { name: 'Qualified', state: 'OPEN', closure: 40, reasons: ['budget'] },
        { name: 'Proposal', state: 'OPEN' },
        { name: 'Old step', state: 'OPEN', isArchived: true },
        { name: 'Won', state: 'CLOSED', closure: 100, reasons: ['fit'] },
        { name: 'Lost', state: 'DROPPED', closure: 0, reasons: ['price', 'late'] },
        { name: 'Rejected', state: 'REJECTED' },
      ],
    },
  ],
  stageReasons: [
    { key: 'fit', label: 'Good fit' },
    { key: 'price', label: 'Price' },
    { key: 'late', label: 'Too late' },
    { key: 'budget', label: 'Has budget' },
  ],
};

type Step =
  | { at: string; create: string; stage: string; budget?: { amount: number; currency: string } }
  | { at: string; move: string; stage?: string; reasons?: string[] }
  | { at: string; remove: string };

/** Leads A to J (H is removed); every instant UTC. */
const HISTORY: Step[] = [
  { at: '2026-08-15T06:00:00Z', create: 'G', stage: 'New', budget: { amount: 300, currency: 'INR' } },
  { at: '2026-09-01T06:00:00Z', move: 'G', stage: 'Qualified' },
  { at: '2026-09-10T06:00:00Z', create: 'A', stage: 'New', budget: { amount: 1000.5, currency: 'INR' } },
  { at: '2026-09-11T06:00:00Z', create: 'B', stage: 'New', budget: { amount: 0.1, currency: 'INR' } },
  { at: '2026-09-12T06:00:00Z', move: 'A', stage: 'Qualified' },
  { at: '2026-09-15T06:00:00Z', move: 'B', stage: 'Qualified' },
  { at: '2026-09-20T06:00:00Z', create: 'C', stage: 'New', budget: { amount: 0.2, currency: 'INR' } },
  { at: '2026-09-22T06:00:00Z', move: 'A', stage: 'Won', reasons: ['Good fit'] },
  { at: '2026-10-01T06:00:00Z', create: 'E', stage: 'New' },
  { at: '2026-10-03T06:00:00Z', move: 'E', stage: 'Lost', reasons: ['Price', 'Too late'] },
  { at: '2026-10-05T06:00:00Z', create: 'D', stage: 'Qualified', budget: { amount: 2500, currency: 'USD' } },
  { at: '2026-10-06T06:00:00Z', move: 'D', reasons: ['Has budget'] },
  { at: '2026-10-10T06:00:00Z', create: 'H', stage: 'New', budget: { amount: 5000, currency: 'INR' } },
  { at: '2026-10-12T06:00:00Z', move: 'H', stage: 'Won' },
  { at: '2026-10-13T06:00:00Z', remove: 'H' },
  { at: '2026-10-14T06:00:00Z', move: 'D', stage: 'Won' },
  { at: '2026-10-20T06:00:00Z', create: 'J', stage: 'New' },
  { at: '2026-10-20T18:00:00Z', move: 'J', stage: 'Qualified' },
  { at: '2026-10-22T06:00:00Z', move: 'J', stage: 'Proposal' },
  { at: '2026-10-31T19:00:00Z', move: 'B', stage: 'Lost', reasons: ['Price'] },
  { at: '2026-11-02T06:00:00Z', create: 'F', stage: 'New' },
  { at: '2026-11-05T06:00:00Z', move: 'F', stage: 'Rejected' },
  { at: '2026-11-10T06:00:00Z', create: 'I', stage: 'Proposal', budget: { amount: 999.99, currency: 'INR' } },
];

export async function seedReportHistory(app: FastifyInstance, tenant: Tenant, clock: { at: number }): Promise<void> {
  const ids = new Map<string, string>();
  const leads = `/api/v1/businesses/${tenant.urlKey}/leads`;
  for (const step of HISTORY) {
    clock.at = Date.parse(step.at);
    const token = await appSecretToken(app, tenant.appId, tenant.appSecret);
    let answer: JsonResponse;
    if ('create' in step) {
      const body = {
        externalId: `report-${step.create}`,
        customer: { name: `Customer ${step.create}` },
        contact: { name: `Contact ${step.create}` },
        pipeline: 'Sales',
        stage: step.stage,
        ...(step.budget && { budget: step.budget }),
      };
      answer = await call(app, 'POST', leads, { token, body });
      ids.set(step.create, answer.body.data?.leadId);
    } else if ('move' in step) {
      const body = { ...(step.stage && { stage: step.stage }), ...(step.reasons && { stageReasons: step.reasons }) };
      answer = await call(app, 'PATCH', `${leads}/${ids.get(step.move)}`, { token, body });
    } else {
      const operator = await operatorToken(app);
      answer = await call(app, 'DELETE', `/admin/v1/businesses/${tenant.urlKey}/leads/${ids.get(step.remove)}`, {
        token: operator,
      });
    }
    if (answer.status >= 300)
      throw new Error(`${JSON.stringify(step)}: ${answer.status} ${JSON.stringify(answer.body)}`);
  }
}

/**
 * Invoices V1 to V7 of an Indian business (one item at 0% GST, so a total is its rate) and their
 * payments; written at REPORTS_NOW with an app token of that moment.
 */
export async function seedReportInvoices(app: FastifyInstance, tenant: Tenant): Promise<void> {
  const admin = `/admin/v1/businesses/${tenant.urlKey}`;
  const settings = await call(app, 'PUT', `${admin}/invoice-settings`, {
    token: tenant.operator,
    body: { billedBy: { gstState: '29' }, numbering: {}, defaultTerms: [] },
  });
  if (settings.status !== 200) throw new Error(`invoice settings: ${JSON.stringify(settings.body)}`);
  const invoices = `/api/v1/businesses/${tenant.urlKey}/invoices`;
  const send = async (method: string, path: string, body?: unknown) => {
    const answer = await call(app, method as 'POST', path, {
      token: tenant.token,
      ...(body !== undefined && { body }),
    });
    if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  };
  const invoice = async (rate: number, invoiceDate: string, dueDate?: string) =>
    (
      await send('POST', invoices, {
        billedTo: { name: 'Asha Traders', country: 'IN', gstState: '29' },
        items: [{ name: 'Service', rate, quantity: 1, gstRate: 0 }],
        invoiceDate,
        ...(dueDate && { dueDate }),
      })
    )._id as string;
  const pay = (id: string, amount: number, paymentDate: string) =>
    send('POST', `${invoices}/${id}/payments`, { amount, paymentDate });

  const v1 = await invoice(1000.1, '2026-09-05', '2026-09-20');
  await pay(v1, 400.1, '2026-09-25');
  await pay(v1, 600, '2026-10-02');
  await invoice(0.2, '2026-10-31T20:00:00Z', '2026-11-20');
  const v3 = await invoice(250.05, '2026-10-10', '2026-10-20');
  await pay(v3, 50.05, '2026-10-31T18:29:59Z');
  await invoice(99.99, '2026-08-01', '2026-08-20');
  await invoice(500, '2026-11-03');
  const v6 = await invoice(300, '2026-09-15', '2026-10-21');
  await pay(v6, 100, '2026-09-20');
  await send('POST', `${invoices}/${v6}/cancel?cancelPayment=true`);
  await invoice(70, '2026-08-22', '2026-08-22');
}
