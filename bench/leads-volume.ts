import type { Kysely } from 'kysely';
import type { StoredLead } from '../src/storage/leads.records.js';
import { leadColumns } from '../src/storage/lead-rows.js';
import type { Database } from '../src/storage/schema.js';

/**
 * Leads by the hundred thousand, written straight to the store in batched multi-row inserts (the
 * write side's own column mapping, so lists read them as they read real leads). Values come from the
 * lead's number through a fixed hash: the same count gives the same leads, and every filter has a
 * realistic spread (pipelines and stages, tags, sources, members, dates, amounts, words).
 */

export interface VolumeConfig {
  pipelines: { id: string; stageIds: string[] }[];
  tagIds: string[];
  memberIds: string[];
  sourceKeys: string[];
}

const WORDS = (
  'alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa quebec romeo sierra tango ' +
  'uniform victor whiskey xray yankee zulu office renovation solar panel roofing kitchen website redesign audit payroll cloud migration ' +
  'laptop fleet printer toner catering wedding event venue logistics freight warehouse shelving security camera network cabling ' +
  'insurance renewal marketing campaign brochure signage furniture chairs desks training workshop licence software support annual ' +
  'maintenance contract hvac plumbing electrical lighting flooring painting landscaping cleaning uniforms medical supplies lab equipment'
).split(' ');
const FIRST =
  'Asha Ravi Meera Arjun Priya Kiran Noor Omar Sara Lina Jose Ana Marco Chen Wei Yuki Hana Ola Emil Zoe'.split(' ');
const LAST =
  'Rao Kumar Shah Iyer Das Khan Patel Nair Singh Gupta Silva Costa Rossi Tan Lim Sato Berg Novak Ali Haddad'.split(' ');
const COMPANY = 'Traders Foods Logistics Textiles Motors Pharma Builders Studios Labs Exports'.split(' ');

/** A 32-bit mix of n and a salt: cheap, fixed, spread well enough for test data. */
function hash(n: number, salt: number): number {
  let x = (n * 0x9e3779b1 + salt * 0x85ebca6b) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x7feb352d) >>> 0;
  x = Math.imul(x ^ (x >>> 15), 0x846ca68b) >>> 0;
  return (x ^ (x >>> 16)) >>> 0;
}
const pick = <T>(list: readonly T[], n: number, salt: number): T => list[hash(n, salt) % list.length]!;

const DAY = 86_400_000;
const START = Date.UTC(2025, 0, 1);

/** Lead number `n` of a volume seeded under `prefix`. */
export function volumeLead(n: number, prefix: string, config: VolumeConfig): StoredLead {
  const pipeline = pick(config.pipelines, n, 1);
  const tagIds = [
    ...new Set(
      [
        hash(n, 2) % 3 !== 0 ? pick(config.tagIds, n, 3) : undefined,
        hash(n, 4) % 5 === 0 ? pick(config.tagIds, n, 5) : undefined,
      ].filter((t): t is string => t !== undefined),
    ),
  ];
  // Two draws: one 32-bit hash spans only 49 days of milliseconds.
  const createdAt = START + (hash(n, 6) % 700) * DAY + (hash(n, 29) % DAY);
  const first = pick(FIRST, n, 7);
  const last = pick(LAST, n, 8);
  const company = `${pick(LAST, n, 9)} ${pick(COMPANY, n, 10)}`;
  const leadId = `${prefix}${n.toString(36)}`;
  return {
    leadId,
    externalId: `ext-${leadId}`,
    removed: hash(n, 11) % 200 === 0,
    source: 'API',
    pipelineId: pipeline.id,
    stageId: pick(pipeline.stageIds, n, 12),
    leadSourceKey: hash(n, 13) % 4 === 0 ? null : pick(config.sourceKeys, n, 14),
    assigneeId: hash(n, 15) % 10 < 3 ? null : pick(config.memberIds, n, 16),
    followUpDate: hash(n, 17) % 10 < 4 ? null : new Date(START + (hash(n, 18) % 800) * DAY).toISOString().slice(0, 10),
    data: {
      customer: {
        clientId: `cl-${hash(n, 19) % 50_000}`,
        name: company,
        country: 'IN',
        phone: null,
        address: null,
        city: null,
        state: null,
        pincode: null,
      },
      contact: {
        contactId: `ct-${prefix}${n.toString(36)}`,
        name: `${first} ${last}`,
        email: `${first}.${last}${hash(n, 20) % 1000}@example.com`.toLowerCase(),
        phone: `+91${9_000_000_000 + (hash(n, 21) % 999_999_999)}`,
        country: 'IN',
        designation: null,
      },
      subject: `${pick(WORDS, n, 22)} ${pick(WORDS, n, 23)} ${pick(WORDS, n, 24)}`,
      details: hash(n, 25) % 2 === 0 ? null : Array.from({ length: 12 }, (_, i) => pick(WORDS, n, 30 + i)).join(' '),
      budget: hash(n, 26) % 10 < 3 ? null : { amount: (hash(n, 27) % 10_000_000) / 100, currency: 'INR' },
      reasonKeys: [],
      tagIds,
      customFields: {},
    },
    version: 1,
    createdAt,
    updatedAt: createdAt + (hash(n, 28) % (30 * DAY)),
  };
}

/** Inserts leads `from` … `to - 1` into the business, `batch` per statement, each batch with its tags in one transaction. */
export async function insertVolume(
  db: Kysely<Database>,
  urlKey: string,
  config: VolumeConfig,
  options: { from?: number; to: number; prefix: string; batch?: number; onBatch?: (done: number) => void },
): Promise<void> {
  const business = await db
    .selectFrom('businesses')
    .select('id')
    .where('url_key', '=', urlKey)
    .executeTakeFirstOrThrow();
  const batch = options.batch ?? 1000;
  for (let start = options.from ?? 0; start < options.to; start += batch) {
    const leads = Array.from({ length: Math.min(batch, options.to - start) }, (_, i) =>
      volumeLead(start + i, options.prefix, config),
    );
    await db.transaction().execute(async (trx) => {
      const rows = await trx
        .insertInto('leads')
        .values(
          leads.map((lead) => ({
            business_pk: business.id,
            lead_id: lead.leadId,
            external_id: lead.externalId,
            removed: lead.removed ? 1 : 0,
            source: lead.source,
            ...leadColumns(lead),
            create_request: null,
            version: 1,
            created_at: lead.createdAt,
            updated_at: lead.updatedAt,
          })),
        )
        .returning(['id', 'lead_id'])
        .execute();
      const pk = new Map(rows.map((r) => [r.lead_id, r.id]));
      const tags = leads.flatMap((lead) =>
        lead.data.tagIds.map((tagId) => ({ lead_pk: pk.get(lead.leadId)!, business_pk: business.id, tag_id: tagId })),
      );
      if (tags.length > 0) await trx.insertInto('lead_tags').values(tags).execute();
    });
    options.onBatch?.(Math.min(start + batch, options.to));
  }
}

/** A synthetic configuration of 3 pipelines of 8 stages, 20 tags, 10 members and the 7 default sources. */
export function syntheticConfig(): VolumeConfig {
  return {
    pipelines: Array.from({ length: 3 }, (_, p) => ({
      id: `pl_v${p}`,
      stageIds: Array.from({ length: 8 }, (_, s) => `st_v${p}_${s}`),
    })),
    tagIds: Array.from({ length: 20 }, (_, i) => `tag_v${i}`),
    memberIds: Array.from({ length: 10 }, (_, i) => `mem_v${i}`),
    sourceKeys: ['WEBSITE', 'REFERRAL', 'EMAIL', 'PHONE', 'SOCIAL', 'EVENT', 'OTHER'],
  };
}
