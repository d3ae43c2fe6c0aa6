import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { expect, it } from 'vitest';
import { LEAD_LIST_QUERY } from '../../src/leads/leads-list.openapi.js';

// client/src/lead-list.ts re-exports GET /leads's parameter types, generated into api-types.ts from the table
// the server reads (src/leads/leads-list.parameters.ts): this checks the client names what the document does.

const CLIENT_FILE = fileURLToPath(new URL('../../client/src/lead-list.ts', import.meta.url));

/** The properties of an exported type of the client's file, as the TypeScript checker sees them. */
function propertiesOf(typeName: string): string[] {
  const program = ts.createProgram([CLIENT_FILE], {
    strict: true,
    noEmit: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(CLIENT_FILE)!;
  const exported = checker.getExportsOfModule(checker.getSymbolAtLocation(source)!).find((s) => s.name === typeName)!;
  // Re-exported from the generated api-types.ts: the type is the one it names.
  const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
  return checker
    .getDeclaredTypeOfSymbol(symbol)
    .getProperties()
    .map((p) => p.name);
}

it("the TypeScript client's LeadListQuery and LeadSyncQuery name exactly the query parameters /openapi.json documents for GET /leads", () => {
  // `$sort[createdAt]` and its kind are one `$sort` object in the client.
  const documented = new Set(LEAD_LIST_QUERY.map((q) => q.name.replace(/\[.*\]$/, '')));
  const list = propertiesOf('LeadListQuery');
  const sync = propertiesOf('LeadSyncQuery');
  expect(new Set([...list, ...sync])).toEqual(documented);
  // A sync refuses $skip and $sort (INVALID_QUERY_FIELD), so its type has neither; only it has the cursor.
  expect(sync).not.toContain('$skip');
  expect(sync).not.toContain('$sort');
  expect(list).not.toContain('after');
});
