// @module-tag pooled
import { describe, expect, it } from 'vitest';
import { followingCandidate } from '../../src/invoices/invoice.numbering.js';
import { http } from '../helpers/process.js';
import { randomKey } from '../helpers/seed.js';
import { availableStores } from '../helpers/stores.js';
import { invoicingBusiness, raceStores, twoServers } from './invoice-races.support.js';

const stores = await availableStores();
const ITEMS = [{ name: 'one', rate: 100, quantity: 2, gstRate: 18 }];
const N = 40;

/**
 * Invoice numbers (invoices-interface 3.5, 4.9, section 8) when a create with a given number for a named
 * client holds no business-wide lock (src/storage/invoices.store.ts, insertInvoice): two server processes
 * on one database (PostgreSQL, and through PgBouncer in the pooled pass; one SQLite file). What guards
 * each race now: the unique (business, number) index, which makes an auto create wait for a given-number
 * create in flight and try the next candidate, and the locked retry of a given number taken meanwhile.
 */
describe.each(raceStores('crmkit-number-races-').filter((s) => stores.includes(s.store)))(
  'invoice numbers: races across two processes on $store (3.5, 4.9, 8)',
  ({ env: storeEnv }) => {
    const { on, all, operator: operatorToken } = twoServers(storeEnv);

    /** A business of its own (its series starting at INV-0001) with one named client, its routes and calls. */
    async function tenant() {
      const operator = operatorToken();
      const a = on(0);
      const { urlKey, token } = await invoicingBusiness(a, operator, 'num');
      const invoices = `/api/v1/businesses/${urlKey}/invoices`;
      const clientId = randomKey('named');
      const client = { clientId, name: 'Named Client', country: 'IN', gstState: '29' };
      const made = await http(a, 'POST', `/api/v1/businesses/${urlKey}/clients`, { token, body: client });
      expect(made.status).toBe(201);
      const billedTo = { clientId };
      const create = (i: number, body: Record<string, unknown> = {}) =>
        http(on(i), 'POST', invoices, { token, body: { billedTo, items: ITEMS, ...body } });
      const numbering = (i: number, prefix: string) =>
        http(on(i), 'PUT', `/admin/v1/businesses/${urlKey}/invoice-settings`, {
          token: operator,
          body: { billedBy: { gstState: '29' }, numbering: { prefix, padding: 4, nextNumber: 1 }, defaultTerms: [] },
        });
      /** Every number of the business, and the most recent invoice's (the find's default order). */
      const numbers = async () => {
        const found: string[] = [];
        for (let skip = 0; ; skip += 50) {
          const page = await http(on(skip), 'GET', `${invoices}?$limit=50&$skip=${skip}`, { token });
          expect(page.status).toBe(200);
          found.push(...page.body.data.map((invoice: { invoiceNumber: string }) => invoice.invoiceNumber));
          if (page.body.data.length < 50) return { all: new Set(found), mostRecent: found[0] };
        }
      };
      /** What an auto number continues now: the most recent number's next, taken ones skipped (3.5.2). */
      const expectedNext = async () => {
        const { all: taken, mostRecent } = await numbers();
        let candidate = followingCandidate(mostRecent!);
        while (taken.has(candidate)) candidate = followingCandidate(candidate);
        return candidate;
      };
      return { create, numbering, numbers, expectedNext };
    }

    it('given numbers racing auto numbers: distinct numbers, each given one its own or a 409 naming the auto that took it; then autos continue the most recent on either process', async () => {
      const t = await tenant();
      expect((await t.create(0)).body.invoiceNumber).toBe('INV-0001');
      // Given numbers on the autos' path (INV-0003, INV-0007, …) and far from it (G-3000, …).
      const given = (i: number) => (i % 4 === 1 ? `INV-${String(i + 2).padStart(4, '0')}` : `G-${i * 1000}`);
      const results = await all(N, (i) => t.create(i, i % 2 === 0 ? {} : { invoiceNumber: given(i) }));
      const created = results.filter((r) => r.status === 201 && r.body.idempotent !== true);
      const byNumber = new Map(created.map((r) => [r.body.invoiceNumber as string, r.body._id as string]));
      expect(byNumber.size).toBe(created.length);
      for (const [i, r] of results.entries()) {
        if (i % 2 === 0) expect([r.status, r.body.idempotent]).toEqual([201, undefined]);
        else if (i % 4 === 3) expect([r.status, r.body.invoiceNumber]).toEqual([201, given(i)]);
        // An auto create took the number first: that invoice answers (same details) or is named (409).
        else if (r.status === 201) expect(r.body._id).toBe(byNumber.get(given(i)));
        else
          expect([r.status, r.body.data.error.code, r.body.data.error.existingInvoiceId]).toEqual([
            409,
            'IDEMPOTENCY_CONFLICT',
            byNumber.get(given(i)),
          ]);
      }
      for (let i = 0; i < 6; i += 1) {
        const next = await t.expectedNext();
        if (i % 3 === 2) {
          // A given number created on one process is what the other continues.
          expect((await t.create(i, { invoiceNumber: `LATE-${i}-9` })).status).toBe(201);
          expect((await t.create(i + 1)).body.invoiceNumber).toBe(`LATE-${i}-10`);
        } else expect((await t.create(i)).body.invoiceNumber).toBe(next);
      }
    }, 90_000);

    it('3.5.3 failed creates racing auto numbers consume none: the autos stay consecutive', async () => {
      const t = await tenant();
      const taken = await t.create(0, { invoiceNumber: 'TAKEN-1' });
      expect(taken.status).toBe(201);
      const first = (await t.create(1)).body.invoiceNumber as string;
      expect(first).toBe('TAKEN-2');
      // Each failure goes through the store: its quick settle finds the number taken, the locked
      // create reads the stored invoice and the details differ (409).
      const results = await all(N, (i) =>
        t.create(i, i % 2 === 0 ? {} : { invoiceNumber: 'TAKEN-1', invoiceTitle: `Other ${i}` }),
      );
      const autos = results.filter((_, i) => i % 2 === 0);
      expect(autos.map((r) => r.status).filter((s) => s !== 201)).toEqual([]);
      for (const r of results.filter((_, i) => i % 2 === 1))
        expect([r.status, r.body.data.error.code, r.body.data.error.existingInvoiceId]).toEqual([
          409,
          'IDEMPOTENCY_CONFLICT',
          taken.body._id,
        ]);
      const numbers = autos.map((r) => Number(/(\d+)$/.exec(r.body.invoiceNumber as string)![1])).sort((a, b) => a - b);
      expect(numbers).toEqual(Array.from({ length: N / 2 }, (_, k) => 3 + k));
      expect((await t.numbers()).all.size).toBe(2 + N / 2);
    }, 90_000);

    it('one given number, sent at once with a new buyer (locked) and with a named client (no lock): one invoice, no 500', async () => {
      const t = await tenant();
      // Rounds, for the locked create to find the number free and the unlocked one to take it before its settle.
      for (let round = 0; round < 8; round += 1) {
        const number = `BOTH-${round}-${randomKey('n')}`;
        const buyer = { name: `New Buyer ${number}`, country: 'IN', gstState: '29' };
        const results = await all(N / 2, (i) =>
          t.create(i, i % 2 === 0 ? { invoiceNumber: number } : { invoiceNumber: number, billedTo: buyer }),
        );
        const fresh = results.filter((r) => r.status === 201 && r.body.idempotent !== true);
        expect(fresh).toHaveLength(1);
        const winner = fresh[0]!.body;
        for (const r of results) {
          if (r.status === 201) expect(r.body._id).toBe(winner._id);
          else
            expect([r.status, r.body.data.error.code, r.body.data.error.existingInvoiceId]).toEqual([
              409,
              'IDEMPOTENCY_CONFLICT',
              winner._id,
            ]);
        }
      }
    }, 90_000);

    it('8 a saved numbering racing creates: it starts at most one invoice, numbers stay distinct; once a create came after the save, autos continue the most recent', async () => {
      const t = await tenant();
      expect((await t.create(0)).status).toBe(201);
      const prefix = `S${randomKey('p').slice(-6)}-`;
      const [saved, ...results] = await Promise.all([
        t.numbering(1, prefix),
        ...Array.from({ length: N }, (_, i) =>
          t.create(i, i % 2 === 0 ? {} : { invoiceNumber: `R-${(i + 1) * 1000}` }),
        ),
      ]);
      expect(saved!.status).toBe(200);
      expect(results.map((r) => r.status).filter((s) => s !== 201)).toEqual([]);
      const numbers = results.map((r) => r.body.invoiceNumber as string);
      expect(new Set(numbers).size).toBe(N);
      // The saved series, if the race let it start, runs from its first number without a hole.
      const series = numbers.filter((n) => n.startsWith(prefix)).sort();
      expect(series).toEqual(series.map((_, k) => `${prefix}${String(k + 1).padStart(4, '0')}`));
      // Saved, then a given number on the other process: the next auto continues that number.
      expect((await t.numbering(0, `${prefix}B-`)).status).toBe(200);
      expect((await t.create(1, { invoiceNumber: `${prefix}GIVEN-41` })).status).toBe(201);
      expect((await t.create(0)).body.invoiceNumber).toBe(`${prefix}GIVEN-42`);
      // Saved with nothing created after it: the next auto (other process) starts it, the one after continues it.
      expect((await t.numbering(1, `${prefix}C-`)).status).toBe(200);
      const started = await all(2, (i) => t.create(i));
      expect(started.map((r) => r.body.invoiceNumber).sort()).toEqual([`${prefix}C-0001`, `${prefix}C-0002`]);
    }, 90_000);
  },
);
