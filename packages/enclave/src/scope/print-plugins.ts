// printPlugins(): the context tree, each context with what it added itself — the picture of
// encapsulation users need when a decorator "disappears".
import type { Context } from '../state/application.js';

function describeContext(context: Context): string {
  const parts: string[] = [];
  const { decorators } = context;
  if (decorators.instance.length > 0) parts.push(`decorators: ${decorators.instance.join(', ')}`);
  if (decorators.request.length > 0) parts.push(`request: ${decorators.request.join(', ')}`);
  if (decorators.reply.length > 0) parts.push(`reply: ${decorators.reply.join(', ')}`);
  // A context's hook lists start as copies of its parent's, which may grow afterwards; counting
  // the entries added through this context's instance is what stays right.
  const ownHooks: string[] = [];
  for (const [name, entries] of context.hooks) {
    const own = entries.filter((entry) => entry.instance === context.instance).length;
    if (own > 0) ownHooks.push(own > 1 ? `${name}×${own}` : name);
  }
  // Application hooks (onReady, onListen, preClose, onClose) are kept in one root-wide list.
  for (const [name, entries] of Object.entries(context.root.applicationHooks)) {
    const own = entries.filter((entry) => entry.instance === context.instance).length;
    if (own > 0) ownHooks.push(own > 1 ? `${name}×${own}` : name);
  }
  if (ownHooks.length > 0) parts.push(`hooks: ${ownHooks.join(', ')}`);
  const schemas = context.schemas.ownSchemaIds();
  if (schemas.length > 0) parts.push(`schemas: ${schemas.join(', ')}`);
  const prefix = context.prefix !== (context.parent?.prefix ?? '') ? ` (prefix ${context.prefix})` : '';
  const wrapped = context.pluginNames.length > 1 ? ` (+ ${context.pluginNames.slice(1).join(', ')})` : '';
  return `${context.name}${wrapped}${prefix}${parts.length > 0 ? ` [${parts.join('; ')}]` : ''}`;
}

function printTree(context: Context, indent: string, last: boolean, lines: string[], isRoot: boolean): void {
  lines.push(isRoot ? describeContext(context) : `${indent}${last ? '└── ' : '├── '}${describeContext(context)}`);
  const childIndent = isRoot ? '' : `${indent}${last ? '    ' : '│   '}`;
  context.children.forEach((child, index) => {
    printTree(child, childIndent, index === context.children.length - 1, lines, false);
  });
}

/** The tree below `context`, one line per context. */
export function printPlugins(context: Context): string {
  const lines: string[] = [];
  printTree(context, '', true, lines, true);
  return `${lines.join('\n')}\n`;
}
