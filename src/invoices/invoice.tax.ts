import { UAE, UAE_VAT_RATES } from '../tax/ae.js';
import { GST_RATES, INDIA } from '../tax/in.js';
import { MALAYSIA, MALAYSIA_SST_RATES } from '../tax/my.js';
import { SAUDI_ARABIA, SAUDI_VAT_RATES } from '../tax/sa.js';
import {
  compareDecimal,
  type Currency,
  DECIMAL_ZERO,
  decimal,
  type Decimal,
  decimalOf,
  pow10,
  roundToMinor,
} from './invoice.money.js';

/**
 * Items → taxed lines and totals (invoices-interface 2.3, 2.4, 3.1–3.4), exact: every value is a BigInt
 * count of minor units, every product an exact Decimal rounded once by R where the spec says.
 */

export const TAX_REGIMES = ['INDIA', 'UAE', 'SAUDI', 'MALAYSIA', 'OTHER'] as const;
export type TaxRegime = (typeof TAX_REGIMES)[number];

/** Each country with a regime of its own and that regime's rate set; every other country is OTHER. */
const COUNTRY_REGIMES: readonly { country: string; regime: TaxRegime; rates: readonly number[] }[] = [
  { country: INDIA.code, regime: 'INDIA', rates: GST_RATES },
  { country: UAE.code, regime: 'UAE', rates: UAE_VAT_RATES },
  { country: SAUDI_ARABIA.code, regime: 'SAUDI', rates: SAUDI_VAT_RATES },
  { country: MALAYSIA.code, regime: 'MALAYSIA', rates: MALAYSIA_SST_RATES },
];

const REGIME_BY_COUNTRY = new Map(COUNTRY_REGIMES.map(({ country, regime }) => [country, regime]));
const RATES_BY_REGIME = new Map(COUNTRY_REGIMES.map(({ regime, rates }) => [regime, rates]));
const RATE_SETS: ReadonlyMap<TaxRegime, readonly Decimal[]> = new Map(
  COUNTRY_REGIMES.map(({ regime, rates }) => [regime, rates.map((rate) => decimalOf(rate)!.value)]),
);

/** OTHER's rates (3.3): any percentage in this range with at most this many decimals. */
export const OTHER_TAX_RATE = { minimum: 0, maximum: 100, decimalPlaces: 4 } as const;

/** The tax regime of a business by its country (section 1). */
export function regimeOf(country: string): TaxRegime {
  return REGIME_BY_COUNTRY.get(country) ?? 'OTHER';
}

/** Whether an item may carry this tax rate (percent) in the regime (3.2.1, 3.3), by value (18 = 18.0). */
export function isAllowedRate(regime: TaxRegime, rate: Decimal): boolean {
  const set = RATE_SETS.get(regime);
  if (set) return set.some((allowed) => compareDecimal(allowed, rate) === 0);
  const { minimum, maximum, decimalPlaces } = OTHER_TAX_RATE;
  return (
    rate.scale <= decimalPlaces &&
    compareDecimal(rate, decimal(BigInt(minimum), 0)) >= 0 &&
    compareDecimal(rate, decimal(BigInt(maximum), 0)) <= 0
  );
}

/** The rates of a regime as a message or the OpenAPI text says them: "0, 5" or "0 to 100 with at most 4 decimals". */
export function allowedRatesText(regime: TaxRegime): string {
  const set = RATES_BY_REGIME.get(regime);
  if (set) return set.join(', ');
  const { minimum, maximum, decimalPlaces } = OTHER_TAX_RATE;
  return `${minimum} to ${maximum} with at most ${decimalPlaces} decimals`;
}

/** 2.5: a PERCENTAGE charge's amount is a percentage up to this, with at most this many decimals. */
export const CHARGE_PERCENTAGE = { maximum: 100, decimalPlaces: 4 } as const;

/** What decides an Indian supply's taxes (3.2.3): the parties' GST states and the buyer's country and type. */
export interface SupplyParties {
  sellerGstState: string;
  buyerCountry: string;
  buyerGstState: string | null;
  buyerTaxPayerType: string | null;
}

/**
 * 3.2.3: IGST (inter-state) unless the buyer is in India, in the seller's GST state, and not an SEZ;
 * another state, an SEZ unit and an export are all inter-state supplies.
 */
export function isInterStateSupply(parties: SupplyParties): boolean {
  const intraState =
    parties.buyerCountry === INDIA.code &&
    parties.buyerGstState === parties.sellerGstState &&
    parties.buyerTaxPayerType !== 'SEZ';
  return !intraState;
}

export type BillType = 'INVOICE' | 'BOS';
export type ChargeType = 'PERCENTAGE' | 'FIXED_AMOUNT';

/** An item as computation needs it: numbers already read by decimalOf and validated (section 7). */
export interface TaxItemInput {
  rate: Decimal;
  quantity: Decimal;
  /** Percent; ignored (taken as 0) on a BOS. */
  taxRate: Decimal;
}

export interface ChargeInput {
  type: ChargeType;
  /** Percent for PERCENTAGE; an amount of the currency (within its minor unit) for FIXED_AMOUNT. */
  amount: Decimal;
  /** 1: a charge; -1: a discount. */
  multiplier: 1 | -1;
}

export interface InvoiceTaxInput {
  currency: Currency;
  regime: TaxRegime;
  billType: BillType;
  /** INDIA only (3.2.3): true when IGST is charged, false for CGST + SGST. Ignored elsewhere. */
  interState: boolean;
  items: readonly TaxItemInput[];
  charges: readonly ChargeInput[];
}

/**
 * One item's members in minor units. igst, cgst, sgst are computed for INDIA (both ways, the vendor's
 * shape) and 0 elsewhere; `tax` is the tax charged (INDIA: igst, or cgst + sgst) and total = amount + tax.
 */
export interface ItemAmounts {
  subTotal: bigint;
  amount: bigint;
  igst: bigint;
  cgst: bigint;
  sgst: bigint;
  tax: bigint;
  total: bigint;
}

/** 2.4: sums of the items' members; discount ≥ 0 and charges ≥ 0 sum the entries; total after them. */
export interface FinalAmounts extends ItemAmounts {
  discount: bigint;
  charges: bigint;
}

export type InvoiceAmounts =
  | { ok: true; items: ItemAmounts[]; charges: { appliedAmount: bigint }[]; finalTotal: FinalAmounts }
  | { ok: false; code: 'AMOUNT_TOO_LARGE' | 'TOTAL_BELOW_ZERO'; field: string };

/** Every computed money value stays below this many major units (3.1.4). */
export const MONEY_LIMIT = 10n ** 12n;

const ITEM_MEMBERS = ['subTotal', 'amount', 'igst', 'cgst', 'sgst', 'tax', 'total'] as const;

/** x × percent / 100 for x in minor units, exact: the /100 adds two decimals, halving (T / 2) is × 5 and one more. */
function exactPercent(minor: bigint, percent: Decimal, currency: Currency, halved = false): Decimal {
  const scale = currency.minorUnit + percent.scale + 2;
  return halved ? { units: minor * percent.units * 5n, scale: scale + 1 } : { units: minor * percent.units, scale };
}

/** 2.3: R(rate × quantity), then the tax on it; R once per member, cgst and sgst from the exact T / 2. */
export function computeItem(item: TaxItemInput, input: Omit<InvoiceTaxInput, 'items' | 'charges'>): ItemAmounts {
  const { currency } = input;
  const product = { units: item.rate.units * item.quantity.units, scale: item.rate.scale + item.quantity.scale };
  const amount = roundToMinor(product, currency);
  const rate = input.billType === 'BOS' ? DECIMAL_ZERO : item.taxRate;
  if (input.regime !== 'INDIA') {
    const tax = roundToMinor(exactPercent(amount, rate, currency), currency);
    return { subTotal: amount, amount, igst: 0n, cgst: 0n, sgst: 0n, tax, total: amount + tax };
  }
  const igst = roundToMinor(exactPercent(amount, rate, currency), currency);
  const half = roundToMinor(exactPercent(amount, rate, currency, true), currency);
  const tax = input.interState ? igst : half + half;
  return { subTotal: amount, amount, igst, cgst: half, sgst: half, tax, total: amount + tax };
}

const abs = (value: bigint): bigint => (value < 0n ? -value : value);

/** The items' lines and sums, or the first item whose members or running sums reach the limit. */
function computeItems(input: InvoiceTaxInput, limit: bigint) {
  const sums: ItemAmounts = { subTotal: 0n, amount: 0n, igst: 0n, cgst: 0n, sgst: 0n, tax: 0n, total: 0n };
  const items: ItemAmounts[] = [];
  for (const [index, item] of input.items.entries()) {
    const line = computeItem(item, input);
    for (const member of ITEM_MEMBERS) sums[member] += line[member];
    if (ITEM_MEMBERS.some((member) => abs(line[member]) >= limit || abs(sums[member]) >= limit)) {
      return { ok: false as const, field: `items[${index}]` };
    }
    items.push(line);
  }
  return { ok: true as const, items, sums };
}

/** 3.4: charges after tax, in order, on the running total; never below 0, every value below the limit. */
export function computeInvoice(input: InvoiceTaxInput): InvoiceAmounts {
  const { currency } = input;
  const limit = MONEY_LIMIT * pow10(currency.minorUnit);
  const lines = computeItems(input, limit);
  if (!lines.ok) return { ok: false, code: 'AMOUNT_TOO_LARGE', field: lines.field };
  let [running, discount, charges] = [lines.sums.total, 0n, 0n];
  const applied: { appliedAmount: bigint }[] = [];
  for (const [index, charge] of input.charges.entries()) {
    const field = `additionalCharges[${index}]`;
    const exact = charge.type === 'PERCENTAGE' ? exactPercent(running, charge.amount, currency) : charge.amount;
    const base = roundToMinor(exact, currency);
    const appliedAmount = BigInt(charge.multiplier) * base;
    running += appliedAmount;
    if (appliedAmount < 0n) discount -= appliedAmount;
    else charges += appliedAmount;
    if ([base, running, discount, charges].some((value) => abs(value) >= limit)) {
      return { ok: false, code: 'AMOUNT_TOO_LARGE', field };
    }
    if (running < 0n) return { ok: false, code: 'TOTAL_BELOW_ZERO', field };
    applied.push({ appliedAmount });
  }
  const finalTotal = { ...lines.sums, discount, charges, total: running };
  return { ok: true, items: lines.items, charges: applied, finalTotal };
}
