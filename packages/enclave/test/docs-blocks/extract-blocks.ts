// Finds the ```ts and ```js blocks of a Markdown file. Other fence languages (sh, text, console…)
// are prose, not code to run. Fences follow CommonMark closely enough for our own docs: a line
// of three or more backticks opens a block, and a line of at least as many backticks closes it.
import { readFileSync } from 'node:fs';

/** A runnable code block: where it is (1-based line of the opening fence) and its source. */
export interface DocBlock {
  file: string;
  line: number;
  language: string;
  source: string;
}

export const runnableLanguages: ReadonlySet<string> = new Set(['ts', 'js', 'typescript', 'javascript', 'mts', 'mjs']);

/** Every fenced block of `markdown` whose language is runnable, in document order. */
export function extractBlocks(file: string, markdown: string): DocBlock[] {
  const blocks: DocBlock[] = [];
  const lines = markdown.split(/\r?\n/);
  let open: { fence: string; language: string; line: number; body: string[] } | null = null;
  for (const [index, text] of lines.entries()) {
    if (open === null) {
      const start = /^ {0,3}(`{3,})\s*([\w+-]*)/.exec(text);
      if (start) open = { fence: start[1] as string, language: (start[2] ?? '').toLowerCase(), line: index + 1, body: [] };
      continue;
    }
    const end = /^ {0,3}(`{3,})\s*$/.exec(text);
    if (end && (end[1] as string).length >= open.fence.length) {
      if (runnableLanguages.has(open.language)) {
        blocks.push({ file, line: open.line, language: open.language, source: `${open.body.join('\n')}\n` });
      }
      open = null;
      continue;
    }
    open.body.push(text);
  }
  if (open !== null) throw new Error(`${file}:${open.line}: a code fence is never closed`);
  return blocks;
}

/** Reads `path` and extracts its runnable blocks, labelled with `label` (the repo-relative path). */
export function extractBlocksFromFile(path: string, label: string): DocBlock[] {
  return extractBlocks(label, readFileSync(path, 'utf8'));
}
