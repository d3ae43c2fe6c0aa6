import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, it } from 'vitest';

const root = new URL('../../', import.meta.url).pathname;

function publicFolders(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).flatMap((e) =>
    e.name === 'public' ? [relative(root, join(dir, e.name))] : publicFolders(join(dir, e.name)));
}

it('the image copies every folder of page files the server serves from src/ (the TypeScript build does not)', () => {
  const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
  const folders = publicFolders(join(root, 'src'));
  expect(folders.sort()).toEqual(['src/openapi/public', 'src/operator/dashboard/public']);
  for (const folder of folders) expect(dockerfile).toContain(`COPY --from=build /app/${folder} ./${folder}`);
});
