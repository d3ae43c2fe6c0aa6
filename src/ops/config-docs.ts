import { VARIABLES, type VariableSpec } from '../config.js';

export const TABLE_START = '<!-- config-table:start (generated from src/config.ts by `crmkit config-table`) -->';
export const TABLE_END = '<!-- config-table:end -->';

function showDefault(value: unknown): string {
  if (value === null || (Array.isArray(value) && value.length === 0)) return 'unset';
  return `\`${Array.isArray(value) ? value.join(',') : String(value)}\``;
}

/** A cell may not hold a raw `|`; the rest of the text is already Markdown. */
const cell = (text: string) => text.replace(/\|/g, '\\|');

/**
 * The variables table of docs/configuration.md, rendered from the one schema in config.ts, so the
 * document cannot drift: a unit test compares it with the file.
 */
export function configurationTable(): string {
  const rows = (Object.values(VARIABLES) as VariableSpec<unknown>[]).map(
    (spec) =>
      `| \`${spec.name}\` | ${showDefault(spec.default)} | ${cell(spec.parse.accepts)} | ${cell(spec.describe)} |`,
  );
  return ['| Variable | Default | Accepts | Meaning |', '|---|---|---|---|', ...rows].join('\n');
}

/** The generated block as it sits in the document, markers included. */
export function configurationBlock(): string {
  return `${TABLE_START}\n${configurationTable()}\n${TABLE_END}`;
}
