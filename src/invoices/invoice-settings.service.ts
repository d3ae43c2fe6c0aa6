import { AppError } from '../errors/app-error.js';
import type { Store } from '../storage/store.js';
import type { AuditEntry } from '../storage/records.js';
import { FieldReader, isJsonObject } from '../validation/field-reader.js';
import { entry } from '../validation/field-spec.js';
import { DEFAULT_NUMBERING, formatNumbering, NUMBERING_LIMITS, type InvoiceNumbering } from './invoice.numbering.js';
import { partyOf, plain, type Party } from './invoice.parties.js';
import { PARTY_SPEC, TERMS_SPEC } from './invoice.schema.js';
import { inBodyOrder } from './invoice.validate.js';

/** The operator's invoice settings (invoices-interface 8): billing details, numbering, default terms. */
export interface InvoiceSettingsDoc {
  billedBy: Party;
  numbering: InvoiceNumbering;
  defaultTerms: unknown[];
}

export const NUMBERING_SPEC = entry(
  'InvoiceNumbering',
  'Once saved, the next auto number is prefix + nextNumber padded (taken ones skipped); then 3.5 continues.',
  [
    [
      'prefix',
      {
        type: 'string',
        maxLength: NUMBERING_LIMITS.prefixMaxLength,
        description: `At most ${NUMBERING_LIMITS.prefixMaxLength} characters. Default "${DEFAULT_NUMBERING.prefix}".`,
      },
    ],
    [
      'padding',
      {
        type: 'integer',
        minimum: NUMBERING_LIMITS.minPadding,
        maximum: NUMBERING_LIMITS.maxPadding,
        description: `Digits, ${NUMBERING_LIMITS.minPadding} to ${NUMBERING_LIMITS.maxPadding}. Default ${DEFAULT_NUMBERING.padding}.`,
      },
    ],
    [
      'nextNumber',
      {
        type: 'integer',
        minimum: NUMBERING_LIMITS.minNextNumber,
        maximum: Number.MAX_SAFE_INTEGER,
        description: `At least ${NUMBERING_LIMITS.minNextNumber}. Default ${DEFAULT_NUMBERING.nextNumber}.`,
      },
    ],
  ],
);

export const SETTINGS_SPEC = entry(
  'InvoiceSettingsInput',
  'Body of PUT /admin/v1/businesses/:urlKey/invoice-settings: the whole object.',
  [
    [
      'billedBy',
      {
        type: 'object',
        required: true,
        entry: PARTY_SPEC,
        description:
          "The seller's billing details (the party members but clientId); gstin fills gstState and panNumber; name defaults to the business's.",
      },
    ],
    [
      'numbering',
      { type: 'object', required: true, entry: NUMBERING_SPEC, description: '{prefix, padding, nextNumber}.' },
    ],
    [
      'defaultTerms',
      {
        type: 'array',
        required: true,
        items: TERMS_SPEC,
        maxItems: 20,
        description: 'Terms of invoices created without terms.',
      },
    ],
  ],
);

/** Body of the settings page's next-number preview: the numbering as PUT would take it. */
export const NUMBERING_PREVIEW_SPEC = entry(
  'InvoiceNumberingPreviewInput',
  'Body of POST /admin/v1/businesses/:urlKey/invoice-settings/numbering-preview.',
  [['numbering', { type: 'object', required: true, entry: NUMBERING_SPEC, description: 'As PUT takes it.' }]],
);

/** Reads and replaces the settings; create reads them (uncached: one small row). */
export class InvoiceSettings {
  constructor(
    private readonly store: Store,
    private readonly now: () => number,
  ) {}

  async stored(urlKey: string): Promise<InvoiceSettingsDoc | null> {
    const found = await this.store.invoices.getSettings(urlKey);
    return (found?.doc as InvoiceSettingsDoc | null | undefined) ?? null;
  }

  /** What GET answers: the saved settings, or the defaults when none were saved. */
  async get(urlKey: string, business: { name: string; country: string }): Promise<InvoiceSettingsDoc> {
    return (
      (await this.stored(urlKey)) ?? {
        billedBy: partyOf({ name: business.name, country: business.country }),
        numbering: DEFAULT_NUMBERING,
        defaultTerms: [],
      }
    );
  }

  /** The numbering of a preview body, read exactly as PUT reads it (the same field errors, the same defaults). */
  readNumbering(body: unknown, business: { country: string }): InvoiceNumbering {
    const reader = new FieldReader({ businessCountry: business.country, enforceGstinChecksum: false });
    const values = isJsonObject(body)
      ? reader.readEntry(NUMBERING_PREVIEW_SPEC, body, '')
      : (reader.nameError('body', 'The request body must be a JSON object'), undefined);
    if (!values || reader.errors.length > 0) throw AppError.fromFieldErrors(reader.errors);
    return { ...DEFAULT_NUMBERING, ...(plain(values.get('numbering')) as Partial<InvoiceNumbering>) };
  }

  /** `audit`: the operator's line, written in the settings' transaction. */
  async put(
    urlKey: string,
    body: unknown,
    business: { name: string; country: string },
    audit: AuditEntry | null = null,
  ): Promise<InvoiceSettingsDoc> {
    const reader = new FieldReader({ businessCountry: business.country, enforceGstinChecksum: false });
    const values = isJsonObject(body)
      ? reader.readEntry(SETTINGS_SPEC, body, '')
      : (reader.nameError('body', 'The request body must be a JSON object'), undefined);
    const billedBy = values?.get('billedBy') as Map<string, unknown> | undefined;
    if (billedBy?.has('country') && billedBy.get('country') !== business.country)
      reader.valueError('billedBy.country', `billedBy.country must be the business's country, ${business.country}`);
    if (!values || reader.errors.length > 0)
      throw AppError.fromFieldErrors(inBodyOrder(reader.errors, isJsonObject(body) ? Object.keys(body) : []));
    const numbering = { ...DEFAULT_NUMBERING, ...(plain(values.get('numbering')) as Partial<InvoiceNumbering>) };
    const doc: InvoiceSettingsDoc = {
      billedBy: partyOf({ name: business.name, country: business.country }, plain(billedBy) as Party),
      numbering,
      defaultTerms: plain(values.get('defaultTerms')) as unknown[],
    };
    if (!(await this.store.invoices.putSettings(urlKey, doc, formatNumbering(numbering), this.now(), audit)))
      throw new AppError('BUSINESS_NOT_FOUND', 'No business with this urlKey');
    return doc;
  }
}
