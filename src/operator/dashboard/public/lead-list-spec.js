// The lead list's parameters as the server documents them (GET /openapi.json, operation
// listLeadsAsOperator): the list view reads the accepted names, the largest page, the skip cap and
// the sort fields from there, so it never holds a copy that could drift from the API.

const OPERATION = 'listLeadsAsOperator';
let loading = null;

function specOf(doc) {
  const operation = Object.values(doc.paths ?? {})
    .flatMap((item) => Object.values(item))
    .find((op) => op?.operationId === OPERATION);
  if (!operation) throw new Error('The server does not describe its lead list.');
  const query = (operation.parameters ?? []).filter((p) => p.in === 'query');
  const schemaOf = (name) => query.find((p) => p.name === name)?.schema ?? {};
  return {
    names: new Set(query.map((p) => p.name)),
    maxLimit: schemaOf('$limit').maximum,
    maxSkip: schemaOf('$skip').maximum,
    sortFields: query.map((p) => /^\$sort\[(.+)\]$/.exec(p.name)?.[1]).filter(Boolean),
  };
}

/** {names, maxLimit, maxSkip, sortFields}, read once per page load. */
export function leadListSpec() {
  loading ??= fetch('/openapi.json', { headers: { accept: 'application/json' } })
    .then((response) => {
      if (!response.ok) throw new Error(`The API description could not be read (HTTP ${response.status}).`);
      return response.json();
    })
    .then(specOf)
    .catch((error) => {
      loading = null;
      throw error;
    });
  return loading;
}

/** The part after "?" of #/lead-list?…: the list's own query string, its names as the API knows them. */
export function addressQuery(spec) {
  const hash = location.hash;
  const at = hash.indexOf('?');
  const params = new URLSearchParams(at < 0 ? '' : hash.slice(at + 1));
  for (const key of [...params.keys()]) {
    // Paging is the view's own; a name the list does not take would only be refused.
    if (key === '$limit' || key === '$skip' || !spec.names.has(key)) params.delete(key);
  }
  return params;
}

/** The sort the address asks for ({field, direction}), or null for the list's default. */
export function sortOf(params) {
  for (const [key, value] of params) {
    const field = /^\$sort\[(.+)\]$/.exec(key)?.[1];
    if (field) return { field, direction: value === '1' ? 1 : -1 };
  }
  return null;
}

/** The same filters sorted by one field only. */
export function withSort(params, field, direction) {
  const next = new URLSearchParams([...params].filter(([key]) => !key.startsWith('$sort[')));
  next.set(`$sort[${field}]`, String(direction));
  return next;
}
