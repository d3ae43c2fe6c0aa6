// @module-tag pooled
import { parse } from 'csv-parse/sync';
import { beforeAll, expect, it } from 'vitest';
import { LEAD_CSV_HEADERS } from '../../src/leads/lead-csv.columns.js';
import { call, describeEachStore } from '../helpers/app.js';
import { createLead, failure, newExternalId, seedLeadTenant, type LeadTenant } from '../helpers/leads.js';

/**
 * Issue 39, lead CSV import and export (docs/decisions.md "Lead CSV import and export"): a dry run
 * checks every row and writes nothing; an import is idempotent on externalId; an export holds every
 * lead the filter matches, in the import's columns.
 */
describeEachStore('lead CSV import and export (issue 39)', (ctx) => {
  let t: LeadTenant;
  const imports = () => `/admin/v1/businesses/${t.urlKey}/lead-imports`;
  const byExternalId = async (externalId: string) =>
    (await call(ctx().app, 'GET', `${t.admin}?externalId=${encodeURIComponent(externalId)}`, { token: t.operator }))
      .body.data[0].total;
  const csvOf = (rows: string[][]) =>
    rows.map((r) => r.map((c) => `"${c.replaceAll('"', '""')}"`).join(',')).join('\r\n');
  const HEAD = ['externalId', 'pipeline', 'stage', 'subject', 'customerName', 'contactName', 'tags', 'budgetAmount'];

  beforeAll(async () => {
    t = await seedLeadTenant(ctx());
  });

  it('a dry run reports each row (valid, unknown stage, repeated externalId) and stores nothing', async () => {
    const [a, b] = [newExternalId(), newExternalId()];
    const csv = csvOf([
      HEAD,
      [a, 'Sales', 'New', 'Line, with "quotes"\nand a newline', 'Asha Traders', 'Asha', 'Hot; VIP', '1250.50'],
      [b, 'Sales', 'Nowhere', 'x', 'Ravi Traders', 'Ravi', '', ''],
      [a, 'Sales', 'New', 'again', 'Asha Traders', 'Asha', '', ''],
    ]);
    const answer = await call(ctx().app, 'POST', imports(), {
      token: t.operator,
      body: { csv, dryRun: true, firstRow: 11 },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const { errors, ...counts } = answer.body.data;
    expect(counts).toEqual({ dryRun: true, rows: 3, created: 1, unchanged: 0, failed: 2 });
    expect(errors.map((e: any) => [e.row, e.externalId, e.code])).toEqual([
      [12, b, 'INVALID_STAGE'],
      [13, a, 'INVALID_FIELD_VALUE'],
    ]);
    expect(errors[1].message).toBe('externalId repeats row 11');
    expect(await byExternalId(a)).toBe(0);
  });

  it('imports rows once: a second run of the same file stores nothing more', async () => {
    const ids = [newExternalId(), newExternalId()];
    const csv = csvOf([
      HEAD,
      [ids[0]!, 'Sales', 'New', 'First "quoted", subject', 'Asha Traders', 'Asha', 'Hot; VIP', '1250.50'],
      [ids[1]!, 'Sales', 'Won', 'Second', 'Ravi Traders', 'Ravi', '', ''],
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
    const again = await call(ctx().app, 'POST', imports(), { token: t.operator, body: { csv } });
    expect(again.body.data).toMatchObject({ rows: 2, created: 0, unchanged: 2, failed: 0 });
    expect(await byExternalId(ids[0]!)).toBe(1);
    const lead = (await call(ctx().app, 'GET', `${t.admin}?externalId=${ids[0]}`, { token: t.operator })).body.data[0]
      .items[0];
    expect(lead).toMatchObject({
      subject: 'First "quoted", subject',
      tags: ['Hot', 'VIP'],
      budget: { amount: 1250.5 },
    });
  });

  it.each([
    ['an unknown column', 'externalId,colour\nx,red', 'csv: unknown columns: colour'],
    ['an unclosed quote', 'externalId,subject\nx,"open', undefined],
    ['no records at all', '', undefined],
  ])('refuses a part with %s as a whole: 400 on csv', async (_, csv, message) => {
    const answer = await call(ctx().app, 'POST', imports(), { token: t.operator, body: { csv, dryRun: true } });
    expect(answer.status).toBe(400);
    expect(failure(answer.body).fields).toEqual(['csv:INVALID_FIELD_VALUE']);
    if (message) expect(answer.body.data.error.message).toBe(message);
  });

  it('exports every lead the filter matches, in the import columns', async () => {
    for (let i = 0; i < 3; i++) await createLead(ctx(), t, { stage: 'Qualified', subject: `Export ${i}, "q"` });
    const answer = await ctx().app.inject({
      method: 'GET',
      url: `/admin/v1/businesses/${t.urlKey}/lead-export?pipeline=Sales&stage=Qualified&$sort[createdAt]=1`,
      headers: { authorization: `Bearer ${t.operator}` },
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('text/csv; charset=utf-8');
    const [header, ...rows] = parse(answer.body) as string[][];
    expect(header).toEqual(LEAD_CSV_HEADERS);
    const subject = header!.indexOf('subject');
    expect(rows.map((r) => r[subject]).sort()).toEqual(['Export 0, "q"', 'Export 1, "q"', 'Export 2, "q"']);
    const refused = await call(ctx().app, 'GET', `/admin/v1/businesses/${t.urlKey}/lead-export?$skip=5`, {
      token: t.operator,
    });
    expect([refused.status, refused.body.data.error.code]).toEqual([400, 'INVALID_QUERY_FIELD']);
  });
});
