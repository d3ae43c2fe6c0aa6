/**
 * IANA time zone names, as the runtime's ICU data knows them. An operator sets a business's zone once;
 * a name this runtime cannot apply would make every "today" rule fail, so it is refused when sent, and
 * a name is stored as the time zone database spells its zone (any case accepted).
 */
export function isTimeZone(name: string): boolean {
  return canonicalTimeZone(name) !== undefined;
}

/**
 * ICU (the runtime's data) still names these zones by their old spellings; the time zone database has
 * renamed them (the same place). Other ICU names are the database's own, or links it keeps.
 */
const RENAMED: Readonly<Record<string, string>> = {
  'Africa/Asmera': 'Africa/Asmara',
  'America/Buenos_Aires': 'America/Argentina/Buenos_Aires',
  'America/Catamarca': 'America/Argentina/Catamarca',
  'America/Coral_Harbour': 'America/Atikokan',
  'America/Cordoba': 'America/Argentina/Cordoba',
  'America/Godthab': 'America/Nuuk',
  'America/Indianapolis': 'America/Indiana/Indianapolis',
  'America/Jujuy': 'America/Argentina/Jujuy',
  'America/Louisville': 'America/Kentucky/Louisville',
  'America/Mendoza': 'America/Argentina/Mendoza',
  'Asia/Calcutta': 'Asia/Kolkata',
  'Asia/Katmandu': 'Asia/Kathmandu',
  'Asia/Rangoon': 'Asia/Yangon',
  'Asia/Saigon': 'Asia/Ho_Chi_Minh',
  'Atlantic/Faeroe': 'Atlantic/Faroe',
  'Europe/Kiev': 'Europe/Kyiv',
  'Pacific/Enderbury': 'Pacific/Kanton',
  'Pacific/Ponape': 'Pacific/Pohnpei',
  'Pacific/Truk': 'Pacific/Chuuk',
};

/** Links the time zone database removed (tzdb 2017c, 2020b) that ICU still resolves. */
const REMOVED = /^(us\/pacific-new|canada\/east-saskatchewan|systemv\/.*)$/i;

/** The zone's name as the time zone database spells it (`ASIA/KOLKATA` → Asia/Kolkata, `utc` → UTC), or undefined when unknown or removed. */
export function canonicalTimeZone(name: string): string | undefined {
  if (name.length === 0 || name.length > 64 || REMOVED.test(name)) return undefined;
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat('en', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
  return RENAMED[resolved] ?? resolved;
}

/** Today's calendar date (YYYY-MM-DD) in a time zone. */
export function todayIn(timeZone: string, now: number): string {
  // en-CA formats as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}
