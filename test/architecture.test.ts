/**
 * The rules of ARCHITECTURE.md that code can check: which way imports point.
 * Each rule reads every import of the files it covers (static, re-exports,
 * type-only imports and `import()`), so a file added later is held to it as
 * the first ones were. The floors are read from ARCHITECTURE.md's `floors`
 * block, so the map and this test cannot say different things.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');

function sourceFiles(folder: string): string[] {
  return readdirSync(join(root, folder), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|tsx)$/.test(entry.name))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)));
}

/** What a file imports: bare specifiers as written, relative ones as paths from the project's root. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const specifiers = [
    ...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?\bfrom\s*'([^']+)'|\bimport\(\s*'([^']+)'\s*\)|(?:^|\n)\s*import\s*'([^']+)'/g),
  ].map((m) => (m[1] ?? m[2] ?? m[3])!);
  return specifiers.map((s) => (s.startsWith('.') ? normalize(join(dirname(file), s)) : s));
}

/** The floors of lib/, top first: each a name and its folders (ARCHITECTURE.md, the fenced block marked `floors`). */
function floorsOf(markdown: string): { name: string; folders: string[] }[] {
  const block = /```floors\n([\s\S]*?)```/.exec(markdown)?.[1];
  if (!block) throw new Error('ARCHITECTURE.md has no floors block');
  return block
    .split('\n')
    .map((line) => line.replace(/#.*/, '').trim())
    .filter(Boolean)
    .map((line) => {
      const [name, folders = ''] = line.split(':');
      return { name: name!.trim(), folders: folders.trim().split(/\s+/) };
    });
}

const floors = floorsOf(readFileSync(join(root, 'ARCHITECTURE.md'), 'utf8'));
/** Each folder's floor, counted from the ground (0) up. */
const floorOf = new Map(floors.flatMap(({ folders }, index) => folders.map((folder) => [folder, floors.length - 1 - index] as const)));
const libFolders = readdirSync(join(root, 'lib'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
/** The folder of lib/ a path is in (`lib/store/dynamo/x.ts` → `store`), or undefined outside lib's folders. */
const folderOf = (path: string) => /^lib\/([^/]+)\//.exec(path)?.[1];

/** Which folders of lib/ each folder imports, with one importing file of each edge as its witness. */
function folderGraph(): Map<string, Map<string, string>> {
  const graph = new Map(libFolders.map((folder) => [folder, new Map<string, string>()]));
  for (const file of sourceFiles('lib')) {
    const from = folderOf(file)!;
    for (const target of importsOf(file)) {
      const to = folderOf(target);
      if (to && to !== from && !graph.get(from)!.has(to)) graph.get(from)!.set(to, `${file} → ${target}`);
    }
  }
  return graph;
}

/** The cycles between folders: each strongly connected set of more than one folder (Tarjan's algorithm), sorted. */
function folderCycles(graph: Map<string, Map<string, string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (folder: string) => {
    index.set(folder, index.size);
    low.set(folder, index.get(folder)!);
    stack.push(folder);
    for (const next of graph.get(folder)!.keys()) {
      if (!index.has(next)) {
        visit(next);
        low.set(folder, Math.min(low.get(folder)!, low.get(next)!));
      } else if (stack.includes(next)) low.set(folder, Math.min(low.get(folder)!, index.get(next)!));
    }
    if (low.get(folder) !== index.get(folder)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      component.push(member);
    } while (member !== folder);
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const folder of graph.keys()) if (!index.has(folder)) visit(folder);
  return cycles;
}

/** `file → import` for each import of the files under `folder` that `refused` matches. */
const violations = (folder: string, refused: (target: string, file: string) => boolean) =>
  sourceFiles(folder).flatMap((file) => importsOf(file).flatMap((target) => (refused(target, file) ? [`${file} → ${target}`] : [])));

/** The adapters, and the code that wires them, which alone may hold AWS SDK clients. */
const awsAdapters = [
  /^lib\/store\/dynamo\//,
  /^lib\/tasks\/queue\.ts$/,
  /^lib\/schedules\/aws-scheduler\.ts$/,
  /^lib\/credentials\/kms-keyring\.ts$/,
  /^lib\/cli\//,
  /^lib\/local\//,
];

describe('dependency direction', () => {
  it('reads the imports it checks', () => {
    expect(importsOf('lib/http/endpoint.ts')).toContain('@middy/core');
    expect(importsOf('lib/http/endpoint.ts')).toContain('lib/store/index.ts');
  });

  it('finds a cycle between folders where there is one', () => {
    const graph = new Map([
      ['a', new Map([['b', 'a.ts → b.ts']])],
      ['b', new Map([['c', 'b.ts → c.ts']])],
      ['c', new Map([['a', 'c.ts → a.ts']])],
      ['d', new Map([['a', 'd.ts → a.ts']])],
    ]);
    expect(folderCycles(graph)).toEqual([['a', 'b', 'c']]);
    expect(
      folderCycles(
        new Map([
          ['a', new Map([['b', '']])],
          ['b', new Map()],
        ]),
      ),
    ).toEqual([]);
  });

  it('puts every folder of lib/ on exactly one floor of ARCHITECTURE.md', () => {
    const listed = floors.flatMap(({ folders }) => folders);
    expect(listed.filter((folder, i) => listed.indexOf(folder) !== i)).toEqual([]);
    expect(libFolders.filter((folder) => !floorOf.has(folder))).toEqual([]);
    expect(listed.filter((folder) => !libFolders.includes(folder))).toEqual([]);
  });

  it('no folders of lib/ import each other, directly or around a circle', () => {
    expect(folderCycles(folderGraph())).toEqual([]);
  });

  it('every import points to its own floor or one below', () => {
    const upward = [...folderGraph()].flatMap(([from, targets]) =>
      [...targets].filter(([to]) => floorOf.get(to)! > floorOf.get(from)!).map(([, witness]) => witness),
    );
    expect(upward).toEqual([]);
  });

  it('the store imports only the ground floor, and lib/http no area', () => {
    const ground = new Set(floors.at(-1)!.folders);
    const areas = floorOf.get(floors.find(({ name }) => name === 'areas')!.folders[0]!)!;
    expect(violations('lib/store', (target) => folderOf(target) !== undefined && folderOf(target) !== 'store' && !ground.has(folderOf(target)!))).toEqual([]);
    expect(violations('lib/http', (target) => folderOf(target) !== undefined && floorOf.get(folderOf(target)!)! >= areas)).toEqual([]);
  });

  it('lib imports neither the stack (cdk/) nor the functions', () => {
    expect(violations('lib', (target) => /^(cdk|functions)\//.test(target))).toEqual([]);
  });

  it('only adapters import AWS SDK clients', () => {
    expect(violations('lib', (target, file) => target.startsWith('@aws-sdk/') && !awsAdapters.some((adapter) => adapter.test(file)))).toEqual([]);
  });

  it('the engine is pure: nothing outside its folder but the numbers, no Node or AWS modules', () => {
    expect(
      violations('lib/engine', (target) => (target.startsWith('lib/') && !/^lib\/(engine|decimal)\//.test(target)) || /^(node:|@aws-sdk\/)/.test(target)),
    ).toEqual([]);
  });

  it('the numbers are pure and stand alone', () => {
    expect(violations('lib/decimal', (target) => !target.startsWith('lib/decimal/'))).toEqual([]);
  });

  it('the task machinery knows no task kind', () => {
    expect(violations('lib/tasks', (target) => /^lib\/(remote|workflows|replay|rules|schedules)\//.test(target))).toEqual([]);
  });

  it('the logger imports no other area', () => {
    expect(violations('lib/logging', (target) => target.startsWith('lib/') && !target.startsWith('lib/logging/'))).toEqual([]);
  });
});
