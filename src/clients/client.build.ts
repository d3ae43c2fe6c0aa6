import type { ReadValues } from '../validation/field-reader.js';
import type { UnderivedClient } from './client.derive.js';
import type {
  AdditionalIdValue, BankAccountValue, ClientType, CustomFieldValue, CustomHeaderValue, OperatorSource,
  ShippingDetailValue, ValidationMode,
} from './client.types.js';

/**
 * Turns the members read from a valid body into the stored shape: every field present, null for unset
 * scalars, defaults for booleans, arrays for lists. Runs only when validation found no error.
 */

const text = (values: ReadValues, key: string): string | null => (values.get(key) as string | undefined) ?? null;
const flag = (values: ReadValues, key: string, defaultValue: boolean): boolean => (values.get(key) as boolean | undefined) ?? defaultValue;
const entries = (values: ReadValues, key: string): ReadValues[] => (values.get(key) as ReadValues[] | undefined) ?? [];

export function buildUnderivedClient(values: ReadValues, mode: ValidationMode): UnderivedClient {
  const client: UnderivedClient = {
    clientId: mode === 'api' ? text(values, 'clientId') : null,
    name: text(values, 'name') ?? '',
    alias: text(values, 'alias'),
    clientType: text(values, 'clientType') as ClientType | null,
    isClient: flag(values, 'isClient', true),
    isVendor: flag(values, 'isVendor', false),
    email: text(values, 'email'),
    phone: text(values, 'phone'),
    phoneShowInInvoice: flag(values, 'phoneShowInInvoice', false),
    emailShowInInvoice: flag(values, 'emailShowInInvoice', false),
    dueInDays: (values.get('dueInDays') as number | undefined) ?? null,
    locale: text(values, 'locale'),
    ...addressOf(values),
    gstin: text(values, 'gstin'),
    gstState: text(values, 'gstState'),
    panNumber: text(values, 'panNumber'),
    trnNumber: text(values, 'trnNumber'),
    tinNumber: text(values, 'tinNumber'),
    sstNumber: text(values, 'sstNumber'),
    taxPayerType: text(values, 'taxPayerType'),
    vatNumber: text(values, 'vatNumber'),
    vatLabel: text(values, 'vatLabel') ?? 'VAT Number',
    additionalIds: buildAdditionalIds(entries(values, 'additionalIds')),
    shippingDetails: entries(values, 'shippingDetails').map(buildShippingDetail),
    bankAccounts: entries(values, 'bankAccounts').map(buildBankAccount),
    customFields: (values.get('customFields') as Record<string, CustomFieldValue> | undefined) ?? {},
  };
  if (mode === 'operator') client.source = text(values, 'source') as OperatorSource;
  return client;
}

function addressOf(values: ReadValues) {
  return {
    street: text(values, 'street'),
    building: text(values, 'building'),
    city: text(values, 'city'),
    district: text(values, 'district'),
    state: text(values, 'state'),
    pincode: text(values, 'pincode'),
    country: text(values, 'country'),
  };
}

/** Only the first entry flagged useForEInvoice keeps the flag (2.5); e-invoicing reads one identifier. */
export function buildAdditionalIds(list: ReadValues[]): AdditionalIdValue[] {
  let flagTaken = false;
  return list.map((values) => {
    const wantsFlag = flag(values, 'useForEInvoice', false);
    const useForEInvoice = wantsFlag && !flagTaken;
    if (wantsFlag) flagTaken = true;
    return {
      label: text(values, 'label') ?? '',
      value: text(values, 'value') ?? '',
      showInInvoice: flag(values, 'showInInvoice', false),
      useForEInvoice,
    };
  });
}

function buildShippingDetail(values: ReadValues): ShippingDetailValue {
  return {
    name: text(values, 'name'),
    ...addressOf(values),
    gstin: text(values, 'gstin'),
    gstState: text(values, 'gstState'),
    sstNumber: text(values, 'sstNumber'),
    tinNumber: text(values, 'tinNumber'),
    taxId: text(values, 'taxId'),
    taxPayerType: text(values, 'taxPayerType'),
    additionalIds: buildAdditionalIds(entries(values, 'additionalIds')),
    customHeaders: entries(values, 'customHeaders').map(buildCustomHeader),
  };
}

function buildCustomHeader(values: ReadValues): CustomHeaderValue {
  return { label: text(values, 'label') ?? '', value: text(values, 'value') };
}

function buildBankAccount(values: ReadValues): BankAccountValue {
  return {
    bankAccountName: text(values, 'bankAccountName'),
    bankAccountHolderName: text(values, 'bankAccountHolderName'),
    bankAccountNumber: text(values, 'bankAccountNumber'),
    ifscCode: text(values, 'ifscCode'),
    iban: text(values, 'iban'),
    sortCode: text(values, 'sortCode'),
    swift: text(values, 'swift'),
    bankAccountType: text(values, 'bankAccountType') as BankAccountValue['bankAccountType'],
    bankCountry: text(values, 'bankCountry'),
    bankCurrency: text(values, 'bankCurrency'),
    isPrimary: flag(values, 'isPrimary', false),
  };
}
