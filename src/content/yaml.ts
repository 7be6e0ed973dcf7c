/**
 * The one YAML grammar: every content file, every error position and every
 * edit the sidecar makes reads YAML through these options of the `yaml`
 * package. YAML 1.2's core schema whatever a `%YAML` directive says, strict:
 * duplicate keys (also `1` beside `"1"`), collection keys, unknown tags,
 * several documents in one file and warnings are all errors. Two things the
 * package would otherwise not say with a position are refused here: nesting
 * deeper than MAX_DEPTH (checked on the parser's tokens without recursion,
 * before the document is composed, whose recursion would overflow the stack),
 * and an alias to no anchor set before it (or too many alias expansions).
 */
import {
  Composer,
  isAlias,
  LineCounter,
  Parser,
  visit,
  YAMLParseError,
  type Alias,
  type CST,
  type Document,
  type DocumentOptions,
  type ParseOptions,
  type SchemaOptions,
} from 'yaml';

export const YAML_OPTIONS = {
  version: '1.2',
  schema: 'core',
  merge: false,
  resolveKnownTags: false,
  uniqueKeys: true,
  stringKeys: true,
  strict: true,
  prettyErrors: false,
  // Not 'silent', which would drop the error of a file with several documents.
  logLevel: 'error',
} as const satisfies ParseOptions & DocumentOptions & SchemaOptions;

/** A parsed YAML file with what is needed to point into it. */
export interface YamlSource {
  document: Document.Parsed;
  lineCounter: LineCounter;
}

interface YamlProblem {
  line: number;
  column: number;
  /** What was found, for `expected valid YAML (got: …)`. */
  message: string;
}

type YamlRead = { ok: true; value: unknown; source: YamlSource } | { ok: false; problems: YamlProblem[] };

/** Reads a YAML text: its value and the document behind it, or every problem with its line and column. */
export function readYaml(text: string): YamlRead {
  const lineCounter = new LineCounter();
  const tokens = [...new Parser(lineCounter.addNewLine).parse(text)];
  const at = (offset: number) => {
    const { line, col } = lineCounter.linePos(offset);
    return { line, column: col };
  };
  const deep = tooDeep(tokens);
  if (deep !== null) return { ok: false, problems: [{ ...at(deep), message: `collections nested more than ${MAX_DEPTH} deep` }] };
  const document = composeOne(tokens, text, lineCounter);
  const errors = [...document.errors, ...document.warnings];
  if (errors.length > 0) return { ok: false, problems: errors.map((error) => ({ ...at(error.pos[0]), message: firstLine(error.message) })) };
  try {
    return { ok: true, value: document.toJS({ maxAliasCount: MAX_ALIAS_COUNT }), source: { document, lineCounter } };
  } catch (error) {
    if (!(error instanceof ReferenceError)) throw error;
    const alias = unresolvedAlias(document);
    if (alias) return { ok: false, problems: [{ ...at(alias.range?.[0] ?? 0), message: `alias *${alias.source}, which names no anchor set before it` }] };
    return { ok: false, problems: [{ ...at(firstAlias(document)?.range?.[0] ?? 0), message: `more than ${MAX_ALIAS_COUNT} alias expansions` }] };
  }
}

/** The document of a text already known to read (to point into it, or to edit it); problems are left to readYaml. */
export function parseYaml(text: string): YamlSource {
  const lineCounter = new LineCounter();
  const tokens = [...new Parser(lineCounter.addNewLine).parse(text)];
  return { document: composeOne(tokens, text, lineCounter), lineCounter };
}

// --- internal ---

const MAX_DEPTH = 100;
const MAX_ALIAS_COUNT = 100;

/** The first document of the tokens; a second one is an error of the first. */
function composeOne(tokens: CST.Token[], text: string, lineCounter: LineCounter): Document.Parsed {
  const documents = [...new Composer({ ...YAML_OPTIONS, lineCounter }).compose(tokens, true, text.length)];
  const first = documents[0]!;
  const second = documents[1];
  if (second) first.errors.push(new YAMLParseError([second.range[0], second.range[1]], 'MULTIPLE_DOCS', 'one document per file'));
  return first;
}

/** Where collections first nest deeper than MAX_DEPTH, walked without recursion; null when they never do. */
function tooDeep(tokens: readonly CST.Token[]): number | null {
  const stack: [CST.Token, number][] = tokens.map((token) => [token, 0]);
  let first: number | null = null;
  while (stack.length > 0) {
    const [token, depth] = stack.pop()!;
    if (token.type === 'document') {
      if (token.value) stack.push([token.value, depth]);
    } else if (token.type === 'block-map' || token.type === 'block-seq' || token.type === 'flow-collection') {
      if (depth + 1 > MAX_DEPTH && (first === null || token.offset < first)) first = token.offset;
      for (const item of token.items) {
        if ('key' in item && item.key) stack.push([item.key, depth + 1]);
        if (item.value) stack.push([item.value, depth + 1]);
      }
    }
  }
  return first;
}

/** The first alias, in document order, whose anchor is not set before it. */
function unresolvedAlias(document: Document.Parsed): Alias | undefined {
  const anchors = new Set<string>();
  let found: Alias | undefined;
  visit(document, {
    Node(_key, node) {
      if (isAlias(node)) {
        if (anchors.has(node.source)) return undefined;
        found = node;
        return visit.BREAK;
      }
      if (node.anchor) anchors.add(node.anchor);
      return undefined;
    },
  });
  return found;
}

function firstAlias(document: Document.Parsed): Alias | undefined {
  let found: Alias | undefined;
  visit(document, {
    Alias(_key, node) {
      found = node;
      return visit.BREAK;
    },
  });
  return found;
}

function firstLine(message: string): string {
  return message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
}
