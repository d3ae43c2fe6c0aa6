import { parse } from 'csv-parse/sync';
import { beforeAll, expect, it } from 'vitest';
import { CLIENT_CSV_HEADERS } from '../../src/clients/client-csv.columns.js';
import { call, describeEachStore } from '../helpers/app.js';
import { seedTenant, type Tenant } from '../helpers/seed.js';

/**
 * Issue 39, client CSV import and export (docs/decisions.md "Client CSV import and export"): a dry run
 * reports every row's problem and writes nothing; an import is idempotent on clientId; an export holds
 * every client the search matches, in the import's columns, with formula cells neutralised.
 */
describeEachStore('client CSV import and export (issue 39)', (ctx) => {
  let t: Tenant;
  let n = 0;
  const id = (name: string) => `${name}-${process.pid}-${n++}`;
  const imports = () => `/admin/v1/businesses/${t.urlKey}/client-imports`;
  const exportOf = async (q: string) => {
    const answer = await ctx().app.inject({
      method: 'GET',
      url: `/admin/v1/businesses/${t.urlKey}/client-export?q=${encodeURIComponent(q)}`,
      headers: { authorization: `Bearer ${t.operator}` },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    return answer;
  };
  const getClient = (clientId: string) =>
    call(ctx().app, 'GET', `/admin/v1/businesses/${t.urlKey}/clients/${encodeURIComponent(clientId)}`, {
      token: t.operator,
    });
  const total = async (q: string) =>
    (await call(ctx().app, 'GET', `/admin/v1/businesses/${t.urlKey}/clients?q=${q}`, { token: t.operator })).body
      .data[0].total as number;
  const csvOf = (rows: string[][]) =>
    rows.map((r) => r.map((c) => `"${c.replaceAll('"', '""')}"`).join(',')).join('\r\n');
  const HEAD = ['clientId', 'name', 'email', 'isVendor', 'dueInDays', 'gstin', 'bankAccounts'];

  beforeAll(async () => {
    t = await seedTenant(ctx().app);
  });

  it('a dry run reports each row (valid, bad fields, repeated clientId, a conflict) and stores nothing', async () => {
    const [a, b, c] = [id('dry'), id('dry'), id('dry')];
    const taken = await call(ctx().app, 'POST', `/api/v1/businesses/${t.urlKey}/clients`, {
      token: t.token,
      body: { clientId: c, name: 'Stored Ltd' },
    });
    expect(taken.status).toBe(201);
    const csv = csvOf([
      HEAD,
      [a, 'Asha, "Traders"', 'asha@example.com', 'true', '30', '', ''],
      [b, 'Ravi Traders', 'not-an-email', 'perhaps', '', '', ''],
      [a, 'Again', '', '', '', '', ''],
      [c, 'Other Name Ltd', '', '', '', '', ''],
      ['', 'No id', '', '', '', '', ''],
    ]);
    const answer = await call(ctx().app, 'POST', imports(), {
      token: t.operator,
      body: { csv, dryRun: true, firstRow: 21 },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const { errors, ...counts } = answer.body.data;
    expect(counts).toEqual({ dryRun: true, rows: 5, created: 1, unchanged: 0, failed: 4 });
    expect(errors.map((e: any) => [e.row, e.clientId, e.code])).toEqual([
      [22, b, 'INVALID_FIELD'],
      [23, a, 'INVALID_FIELD_VALUE'],
      [24, c, 'IDEMPOTENCY_CONFLICT'],
      [25, null, 'INVALID_FIELD_VALUE'],
    ]);
    expect(errors[0].errors.map((e: any) => e.field).sort()).toEqual(['email', 'isVendor']);
    expect(errors[1].message).toBe('clientId repeats row 21');
    expect((await getClient(a)).status).toBe(404);
  });

  it('imports rows once: a second run of the same file stores nothing more', async () => {
    const [a, b] = [id('run'), id('run')];
    const bank = JSON.stringify([{ bankAccountNumber: '001122', ifscCode: 'HDFC0000001', isPrimary: true }]);
    const csv = csvOf([
      HEAD,
      [a, 'Asha Traders', 'asha@example.com', 'false', '15', '27AAPFU0939F1ZV', bank],
      [b, 'Ravi Traders', '', '', '', '', ''],
    ]);
    const first = await call(ctx().app, 'POST', imports(), { token: t.operator, body: { csv } });
    expect(first.body.data, JSON.stringify(first.body)).toEqual({
      dryRun: false,
      rows: 2,
      created: 2,
      unchanged: 0,
      failed: 0,
      errors: [],
    });
    const preview = await call(ctx().app, 'POST', imports(), { token: t.operator, body: { csv, dryRun: true } });
    expect(preview.body.data).toMatchObject({ rows: 2, created: 0, unchanged: 2, failed: 0 });
    const again = await call(ctx().app, 'POST', imports(), { token: t.operator, body: { csv } });
    expect(again.body.data).toMatchObject({ rows: 2, created: 0, unchanged: 2, failed: 0 });
    expect(await total(a)).toBe(1);
    const stored = (await getClient(a)).body.data;
    expect(stored).toMatchObject({
      name: 'Asha Traders',
      isVendor: false,
      dueInDays: 15,
      gstState: '27',
      panNumber: 'AAPFU0939F',
      bankAccounts: [{ bankAccountNumber: '001122', ifscCode: 'HDFC0000001', isPrimary: true }],
    });
  });

  it.each([
    ['an unknown column', 'clientId,colour\nx,red', 'csv: unknown columns: colour'],
    ['an unclosed quote', 'clientId,name\nx,"open', undefined],
    ['no records at all', '', undefined],
  ])('refuses a part with %s as a whole: 400 on csv', async (_, csv, message) => {
    const answer = await call(ctx().app, 'POST', imports(), { token: t.operator, body: { csv, dryRun: true } });
    expect(answer.status).toBe(400);
    expect(answer.body.data.error.errors.map((e: any) => `${e.field}:${e.code}`)).toEqual(['csv:INVALID_FIELD_VALUE']);
    if (message) expect(answer.body.data.error.message).toBe(message);
  });

  it('exports the clients a search matches in the import columns, and the file imports as unchanged', async () => {
    const tag = id('exp');
    for (const [i, name] of ['Alpha, "A" Ltd', 'Beta Ltd'].entries()) {
      const made = await call(ctx().app, 'POST', `/api/v1/businesses/${t.urlKey}/clients`, {
        token: t.token,
        body: {
          clientId: `${tag}-${i}`,
          name,
          phone: '+91 98450 12345',
          gstin: '27AAPFU0939F1ZV',
          additionalIds: [{ label: 'UDY', value: 'UDYAM-MH-01-0000001' }],
          shippingDetails: [{ city: 'Pune', country: 'IN' }],
        },
      });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
    }
    const answer = await exportOf(tag);
    expect(answer.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(answer.headers['content-disposition']).toBe('attachment; filename="clients.csv"');
    const [header, ...rows] = parse(answer.body) as string[][];
    expect(header).toEqual(CLIENT_CSV_HEADERS);
    const cell = (row: string[], name: string) => row[header!.indexOf(name)];
    expect(rows.map((r) => cell(r, 'name')).sort()).toEqual(['Alpha, "A" Ltd', 'Beta Ltd']);
    expect(rows.map((r) => cell(r, 'status'))).toEqual(['active', 'active']);
    const again = await call(ctx().app, 'POST', imports(), { token: t.operator, body: { csv: answer.body } });
    expect(again.body.data, JSON.stringify(again.body.data.errors)).toMatchObject({
      rows: 2,
      created: 0,
      unchanged: 2,
      failed: 0,
    });
    const refused = await call(ctx().app, 'GET', `/admin/v1/businesses/${t.urlKey}/client-export?$limit=5`, {
      token: t.operator,
    });
    expect([refused.status, refused.body.data.error.code]).toEqual([400, 'INVALID_QUERY_FIELD']);
  });

  it('neutralises cells a spreadsheet would run as formulas, and an import takes them back as they were', async () => {
    const tag = id('inj');
    const names = ['=HYPERLINK("http://x.example","click")', '+1+2', '-3+4', '@SUM(A1)'];
    const csv = csvOf([['clientId', 'name'], ...names.map((name, i) => [`${tag}-${i}`, name])]);
    const imported = await call(ctx().app, 'POST', imports(), { token: t.operator, body: { csv } });
    expect(imported.body.data, JSON.stringify(imported.body)).toMatchObject({ created: 4, failed: 0 });
    const stored = (await getClient(`${tag}-0`)).body.data;
    expect(stored.name).toBe(names[0]);
    const answer = await exportOf(tag);
    const [header, ...rows] = parse(answer.body) as string[][];
    const name = header!.indexOf('name');
    expect(rows.map((r) => r[name]).sort()).toEqual(names.map((v) => `'${v}`).sort());
    const again = await call(ctx().app, 'POST', imports(), { token: t.operator, body: { csv: answer.body } });
    expect(again.body.data).toMatchObject({ created: 0, unchanged: 4, failed: 0 });
  });
});
