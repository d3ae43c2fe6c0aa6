import fc from 'fast-check';
import type { ClientValue } from '../../../src/clients/client.types.js';
import { gstinCheckCharacter } from '../../../src/validation/tax-ids.js';
import { CUSTOM_FIELDS } from './client-context.js';

/** Generators of valid create bodies (for the business context of client-context.ts: IN, custom fields on). */

const storableText = (maxLength: number) =>
  fc.string({ unit: 'grapheme', maxLength }).filter((s) => !s.includes('\u0000'));
const nonBlank = (maxLength: number) => storableText(maxLength).filter((s) => s.trim().length > 0);
const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null });
const digits = (length: number) => fc.stringMatching(new RegExp(`^[0-9]{${length}}$`));

const email = fc
  .tuple(
    fc.stringMatching(/^[A-Za-z0-9_+-]{1,20}$/),
    fc.stringMatching(/^[a-z0-9]{1,20}$/),
    fc.constantFrom('com', 'in', 'CO', 'ae'),
  )
  .map(([local, domain, tld]) => `${local}@${domain}.${tld}`);

const phone = fc
  .tuple(
    fc.boolean(),
    fc.array(fc.tuple(digits(3), fc.constantFrom('', ' ', '-', ')', '(')), { minLength: 1, maxLength: 6 }),
  )
  .map(([plus, parts]) => `${plus ? '+' : ''}${parts.map(([d, sep]) => d + sep).join('')}`);

const gstin = fc
  .tuple(
    fc.constantFrom('27', '07', '29', '33', '97'),
    fc.stringMatching(/^[A-Z]{5}[0-9]{4}[A-Z][1-9A-Z]$/),
    fc.constantFrom('Z', 'C', 'D'),
  )
  .map(([state, middle, kind]) => {
    const first14 = `${state}${middle}${kind}`;
    return first14 + gstinCheckCharacter(first14);
  });

const saClientCode = fc.subarray(['NAT', 'TIN', 'IQA', 'PAS', 'GCC', 'CRN', 'MOM', 'MLS', 'SAG', 'OTH']);
const additionalIds = saClientCode.chain((codes) =>
  fc.tuple(
    ...codes.map((label) =>
      fc.record(
        {
          label: fc.constant(label),
          value: nonBlank(40),
          showInInvoice: fc.option(fc.boolean(), { nil: undefined }),
          useForEInvoice: fc.option(fc.boolean(), { nil: undefined }),
        },
        { requiredKeys: ['label', 'value'] },
      ),
    ),
  ),
);

const shippingDetail = fc.record(
  {
    name: optional(storableText(500)),
    street: optional(storableText(60)),
    city: optional(storableText(500)),
    state: optional(storableText(500)),
    pincode: optional(storableText(20)),
    country: optional(fc.constantFrom('IN', 'SA', 'AE', 'GB')),
    gstin: optional(gstin),
    taxPayerType: optional(storableText(500)),
    additionalIds,
    customHeaders: fc.array(
      fc.record({ label: storableText(500).filter((s) => s.length > 0), value: optional(storableText(100)) }),
      { maxLength: 3 },
    ),
  },
  { requiredKeys: [] },
);

const bankAccount = fc.oneof(
  fc.record(
    {
      iban: optional(storableText(500)),
      bankAccountType: optional(fc.constantFrom('SAVINGS', 'CURRENT')),
      isPrimary: fc.boolean(),
      bankCurrency: fc.constantFrom('INR', 'SAR', 'EUR'),
    },
    { requiredKeys: [] },
  ),
  fc.record(
    {
      sortCode: fc.constantFrom('12-34-56', '654321'),
      bankCountry: fc.constantFrom('GB', 'IE'),
      swift: storableText(20),
    },
    { requiredKeys: ['sortCode', 'bankCountry'] },
  ),
);

const customFields = fc.record(
  {
    Region: fc.constantFrom('North', 'South'),
    notes: storableText(2500),
    'CREDIT LIMIT': fc.double({ noNaN: true, noDefaultInfinity: true }),
    'Customer Since': fc
      .date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T00:00:00Z'), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10)),
    VIP: fc.boolean(),
  },
  { requiredKeys: [] },
);

/** A valid body; the client country is SA so that the generated SA client codes apply. */
export const validBody = fc
  .record(
    {
      clientId: nonBlank(128)
        .map((s) => s.trim())
        .filter((s) => [...s].length <= 128)
        .chain((id) => fc.constantFrom(id, ` ${id} `)),
      name: nonBlank(500),
      alias: optional(storableText(500)),
      clientType: optional(fc.constantFrom('INDIVIDUAL', 'COMPANY')),
      isClient: fc.option(fc.constant(true), { nil: undefined }),
      isVendor: optional(fc.boolean()),
      email: optional(email),
      phone: optional(phone),
      dueInDays: optional(fc.integer({ min: 0, max: 36500 })),
      country: fc.constant('SA'),
      state: optional(storableText(500)),
      gstin: optional(gstin),
      trnNumber: optional(fc.stringMatching(/^1[0-9]{14}$/)),
      tinNumber: optional(fc.stringMatching(/^[A-Z0-9]{10,15}$/)),
      sstNumber: optional(fc.stringMatching(/^[A-Z]{3}-[0-9]{4}-[0-9]{8}$/)),
      taxPayerType: optional(fc.constantFrom('B2C', 'REG', 'SEZ', 'EXP')),
      vatNumber: optional(storableText(500)),
      additionalIds,
      shippingDetails: fc.array(shippingDetail, { maxLength: 3 }),
      bankAccounts: fc.array(bankAccount, { maxLength: 3 }),
      customFields,
    },
    { requiredKeys: ['clientId', 'name', 'country'] },
  )
  .map((body) => JSON.parse(JSON.stringify(body)) as Record<string, unknown>);

/** The body a caller would send to restate a stored value: custom fields by display name, no source. */
export function bodyFromValue(value: ClientValue): Record<string, unknown> {
  const { source: _source, customFields: byId, ...rest } = value;
  const byName: Record<string, unknown> = {};
  for (const field of CUSTOM_FIELDS) if (Object.hasOwn(byId, field.id)) byName[field.name] = byId[field.id];
  return { ...rest, customFields: byName };
}
