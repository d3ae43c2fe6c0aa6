// @ts-check
// Importing leads or clients from a CSV file (POST …/lead-imports, …/client-imports): the file is
// split into parts of the server's size (csv-parts.js), each checked first (a dry run: the preview,
// with every row's problem) and imported only when the operator confirms. Rows already stored under
// their key (externalId, clientId) are left as they are, so importing the same file again adds nothing.
import { api, getSession, seg } from './api.js';
import { errorBanner, field, h, mount } from './dom.js';
import { csvParts } from './csv-parts.js';

/**
 * @typedef {import('./dashboard-types.js').Business} Business
 * @typedef {import('./dashboard-types.js').ViewContext & { business: Business }} Ctx
 * @typedef {import('./csv-parts.js').CsvPart} CsvPart
 * @typedef {import('../../../../client/src/api-types.js').FieldError} FieldError
 * @typedef {typeof LEAD_CSV} CsvKind
 */
/**
 * An import's answer (the leads' or the clients'), and one failed row of it: its key sits under the
 * feature's own name (externalId, clientId).
 * @typedef {import('./dashboard-types.js').OperatorSchemas['LeadImportOutcome'] | import('./dashboard-types.js').OperatorSchemas['ClientImportOutcome']} ImportTotal
 * @typedef {ImportTotal['errors'][number]} RowError
 */

/** Records per request: the server's limit, from its error when a part is too big (the first part shows it). */
const PART = 1000;
const SHOWN_ERRORS = 50;

/** What differs between the two files: the endpoints, the nouns, the key each row is known by. */
export const LEAD_CSV = {
  imports: 'lead-imports',
  export: 'lead-export',
  noun: 'leads',
  key: 'externalId',
  inputName: 'leadsCsv',
  hint: 'Columns as the export writes them (externalId, pipeline, stage, subject, customerName, contactName, …). Rows whose externalId is already imported are left as they are.',
};
export const CLIENT_CSV = {
  imports: 'client-imports',
  export: 'client-export',
  noun: 'clients',
  key: 'clientId',
  inputName: 'clientsCsv',
  hint: 'Columns as the export writes them (clientId, name, email, phone, country, gstin, …; lists and custom fields as JSON). Rows whose clientId is already imported are left as they are.',
};

/**
 * @param {string} path
 * @param {CsvPart[]} parts
 * @param {boolean} dryRun
 * @param {(rows: number) => void} progress
 */
async function send(path, parts, dryRun, progress) {
  /** @type {Omit<ImportTotal, 'dryRun' | 'errors'> & { errors: RowError[] }} */
  const total = { rows: 0, created: 0, unchanged: 0, failed: 0, errors: [] };
  for (const part of parts) {
    /** @type {ImportTotal} */
    const answer = await api('POST', path, { csv: part.text, dryRun, firstRow: part.firstRow });
    for (const key of /** @type {const} */ (['rows', 'created', 'unchanged', 'failed'])) total[key] += answer[key];
    total.errors.push(...answer.errors.slice(0, SHOWN_ERRORS - total.errors.length));
    progress(total.rows);
  }
  return total;
}

/**
 * @param {RowError[]} errors
 * @param {number} failed
 * @param {string} key the row's own key, under the feature's name (externalId, clientId)
 */
function errorTable(errors, failed, key) {
  if (failed === 0) return null;
  return h(
    'div',
    {},
    h(
      'p',
      {},
      failed > errors.length ? `The first ${errors.length} of ${failed} rows with a problem:` : 'Rows with a problem:',
    ),
    h(
      'table',
      { class: 'data-table compact stack', 'aria-label': 'Rows with a problem' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['Row', key, 'Problem'].map((t) => h('th', { scope: 'col' }, t)),
        ),
      ),
      h(
        'tbody',
        {},
        errors.map((e) =>
          h(
            'tr',
            {},
            h('td', { 'data-label': 'Row' }, String(e.row)),
            h('td', { 'data-label': key }, String(/** @type {Record<string, unknown>} */ (e)[key] ?? '')),
            h(
              'td',
              { 'data-label': 'Problem' },
              e.errors?.map((f) => `${f.field}: ${f.message}`).join('; ') || e.message,
            ),
          ),
        ),
      ),
    ),
  );
}

/**
 * @param {Ctx} ctx
 * @param {() => unknown} onImported
 * @param {CsvKind} [kind]
 */
export function csvImportCard(ctx, onImported, kind = LEAD_CSV) {
  const path = `/businesses/${seg(ctx.business.urlKey)}/${kind.imports}`;
  const file = h('input', { type: 'file', name: kind.inputName, accept: '.csv,text/csv' });
  const status = h('div', { class: 'csv-status' });
  /** @type {CsvPart[]} */
  let parts = [];
  const run = async (/** @type {boolean} */ dryRun) => {
    const rows = parts.reduce((n, p) => n + p.rows, 0);
    const line = h(
      'p',
      { role: 'status', class: 'loading' },
      dryRun ? `Checking ${rows} rows…` : `Importing ${rows} rows…`,
    );
    mount(status, line);
    const verb = dryRun ? 'Checked' : 'Imported';
    const total = await send(path, parts, dryRun, (done) => {
      line.textContent = `${verb} ${done} of ${rows} rows…`;
    });
    return total;
  };
  file.addEventListener('change', async () => {
    mount(status);
    const chosen = file.files?.[0];
    if (!chosen) return;
    try {
      parts = csvParts(await chosen.text(), PART);
      if (parts.length === 0) {
        mount(status, errorBanner(`The file holds no ${kind.noun.slice(0, -1)} rows.`));
        return;
      }
      const preview = await run(true);
      const importButton = h(
        'button',
        { type: 'button', class: 'primary', disabled: preview.created === 0 },
        `Import ${preview.created} new ${kind.noun}`,
      );
      importButton.addEventListener('click', async () => {
        importButton.disabled = true;
        try {
          const done = await run(false);
          mount(
            status,
            h(
              'p',
              { role: 'status', class: 'csv-result' },
              `Imported: ${done.created} new, ${done.unchanged} already there, ${done.failed} failed.`,
            ),
            errorTable(done.errors, done.failed, kind.key),
          );
          await onImported();
        } catch (error) {
          if (error.status !== 401) mount(status, errorBanner(error.message));
        }
      });
      mount(
        status,
        h(
          'p',
          { role: 'status', class: 'csv-preview' },
          `Preview of ${preview.rows} rows: ${preview.created} new, ${preview.unchanged} already imported, ${preview.failed} with a problem. Nothing is written yet.`,
        ),
        errorTable(preview.errors, preview.failed, kind.key),
        importButton,
      );
    } catch (error) {
      if (error.status !== 401) mount(status, errorBanner(error.fieldErrors?.[0]?.message ?? error.message));
    }
  });
  return h(
    'details',
    { class: 'card csv-import' },
    h('summary', {}, `Import ${kind.noun} from CSV`),
    h('p', { class: 'muted' }, kind.hint),
    field('CSV file', file),
    status,
  );
}

/**
 * Downloads the leads the list's filters match, as the server writes them (GET …/lead-export).
 * @param {Ctx} ctx
 * @param {URLSearchParams | string} params
 * @param {string} [token]
 */
export const exportLeads = (ctx, params, token) => exportCsv(ctx, LEAD_CSV, params, token);

/**
 * Downloads the records the filters match, as the server writes them (GET …/lead-export, …/client-export).
 * @param {Ctx} ctx
 * @param {CsvKind} kind
 * @param {URLSearchParams | string} params
 * @param {string} [token]
 */
export async function exportCsv(ctx, kind, params, token = getSession()?.token) {
  const response = await fetch(`/admin/v1/businesses/${seg(ctx.business.urlKey)}/${kind.export}?${params}`, {
    headers: { authorization: `Bearer ${token}`, accept: 'text/csv' },
  });
  if (!response.ok) {
    const json = await response.json().catch(() => null);
    throw new Error(json?.data?.error?.message ?? `The export failed (HTTP ${response.status}).`);
  }
  const url = URL.createObjectURL(await response.blob());
  const link = h('a', { href: url, download: `${kind.noun}-${ctx.business.urlKey}.csv`, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
