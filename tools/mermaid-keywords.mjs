// The words Mermaid's sequence-diagram lexer reserves, read from the installed `mermaid`
// package's own grammar: every lexer rule that starts with a word (`/^(?:autonumber\b)/i`,
// `/^(?:left of\b)/i`, `/^(?:accTitle\s*:\s*)/i`) gives that word, lower-cased (the rules are
// case-insensitive). `node tools/mermaid-keywords.mjs` prints them, one per line.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** Returns the reserved words, sorted, from the sequence diagram's lexer rules. */
export function mermaidKeywords(root = path.join(HERE, 'node_modules/mermaid/dist/chunks/mermaid.core')) {
  const file = fs.readdirSync(root).find((f) => /^sequenceDiagram-.*\.mjs$/.test(f));
  if (!file) throw new Error(`no sequence diagram grammar in ${root}`);
  const source = fs.readFileSync(path.join(root, file), 'utf8');
  const rules = source.match(/rules: \[(.*)\],\n/);
  if (!rules) throw new Error(`no lexer rules in ${file}`);
  const words = new Set();
  for (const m of rules[1].matchAll(/\/\^\(\?:([A-Za-z][A-Za-z_]*)/g)) words.add(m[1].toLowerCase());
  if (!words.has('participant') || !words.has('end')) throw new Error(`the lexer rules of ${file} were not read: ${[...words]}`);
  return [...words].sort();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(mermaidKeywords().join('\n'));
