import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, it } from 'vitest';

const root = new URL('../../', import.meta.url).pathname;

function publicFolders(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .flatMap((e) => (e.name === 'public' ? [relative(root, join(dir, e.name))] : publicFolders(join(dir, e.name))));
}

it('the image copies every folder of page files the server serves from src/ (the TypeScript build does not)', () => {
  const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
  const folders = publicFolders(join(root, 'src'));
  expect(folders.sort()).toEqual(['src/openapi/public', 'src/operator/dashboard/public']);
  for (const folder of folders) expect(dockerfile).toContain(`COPY --from=build /app/${folder} ./${folder}`);
});

it('the image and the systemd unit run Node 24 LTS', () => {
  const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
  const stages = [...dockerfile.matchAll(/^FROM (\S+)/gm)].map((m) => m[1]);
  expect(stages).toEqual(['node:24-bookworm-slim', 'node:24-bookworm-slim']);
  const operations = readFileSync(join(root, 'docs/operations.md'), 'utf8');
  const unit = operations.slice(operations.indexOf('# /etc/systemd/system/crmkit.service'));
  expect(unit).toMatch(/ExecStartPre=\/usr\/bin\/node -e .*startsWith\('24\.'\)/);
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines: { node: string } };
  expect(pkg.engines.node).toContain('^24');
});
