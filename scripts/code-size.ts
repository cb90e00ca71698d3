// `npm run size`: the size limits of src/: every TypeScript file over MAX_FILE_LINES lines and every function (declaration,
// method, accessor, constructor, function expression, arrow) over MAX_FUNCTION_LINES lines, counted from its first
// token to its last, nested functions counted on their own too. Exits 1 when anything is over, so it can gate a run.
// `--all` prints the largest files and functions even when nothing is over.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const MAX_FILE_LINES = 400;
const MAX_FUNCTION_LINES = 80;

const root = path.resolve(import.meta.dirname, '..');
// Not hand-written code: drizzle-kit's migrations (SQL and JSON only today, excluded should a .ts ever appear) and the
// Shopify Admin schema that `npm run shopify:schema` downloads.
const EXCLUDED = ['src/db/migrations/', 'src/sandbox/migrations/', 'src/storefront/shopify/schema/'];

interface Over {
  file: string;
  line: number;
  name: string;
  lines: number;
}

function sourceFiles(): string[] {
  return readdirSync(path.join(root, 'src'), { recursive: true })
    .map((f) => path.posix.join('src', String(f).split(path.sep).join('/')))
    .filter((f) => f.endsWith('.ts') && !EXCLUDED.some((dir) => f.startsWith(dir)))
    .sort();
}

const lineOf = (source: ts.SourceFile, pos: number) => source.getLineAndCharacterOfPosition(pos).line + 1;

/** What a function is called where it is written: its own name, or the variable, property or parameter holding it. */
function functionName(node: ts.FunctionLikeDeclaration, source: ts.SourceFile): string {
  if (node.name) return node.name.getText(source);
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && parent.name) {
    return parent.name.getText(source);
  }
  if (ts.isCallExpression(parent)) return `(callback of ${parent.expression.getText(source).slice(0, 40)})`;
  return '(anonymous)';
}

function measure(file: string): { lines: number; functions: Over[] } {
  const text = readFileSync(path.join(root, file), 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const functions: Over[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const fn = node as ts.FunctionLikeDeclaration;
      const line = lineOf(source, fn.getStart(source));
      functions.push({ file, line, name: functionName(fn, source), lines: lineOf(source, fn.getEnd()) - line + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  // A trailing newline does not make a line.
  return { lines: text.split('\n').length - (text.endsWith('\n') ? 1 : 0), functions };
}

const all = process.argv.includes('--all');
const measured = sourceFiles().map((file) => ({ file, ...measure(file) }));
const bigFiles = measured.filter((m) => all || m.lines > MAX_FILE_LINES).sort((a, b) => b.lines - a.lines);
const bigFunctions = measured
  .flatMap((m) => m.functions)
  .filter((f) => all || f.lines > MAX_FUNCTION_LINES)
  .sort((a, b) => b.lines - a.lines);

const shown = (list: unknown[]) => (all ? list.slice(0, 20) : list);
process.stdout.write(`Files over ${MAX_FILE_LINES} lines: ${measured.filter((m) => m.lines > MAX_FILE_LINES).length}\n`);
for (const m of shown(bigFiles) as typeof bigFiles) process.stdout.write(`  ${String(m.lines).padStart(5)}  ${m.file}\n`);
process.stdout.write(
  `Functions over ${MAX_FUNCTION_LINES} lines: ${measured.flatMap((m) => m.functions).filter((f) => f.lines > MAX_FUNCTION_LINES).length}\n`,
);
for (const f of shown(bigFunctions) as typeof bigFunctions) process.stdout.write(`  ${String(f.lines).padStart(5)}  ${f.file}:${f.line}  ${f.name}\n`);

const over = measured.some((m) => m.lines > MAX_FILE_LINES || m.functions.some((f) => f.lines > MAX_FUNCTION_LINES));
process.exit(over ? 1 : 0);
