/**
 * Check flags as Weblate 2026.8 reads and writes them (checks/flags.py and
 * checks/parser.py): a comma-separated list of flags, each a name with
 * optional `:`-separated values (quoted with `"` or `'`, or `r"…"` for a
 * regular expression). Merging keeps one flag per name, the later one
 * winning, and `discard:<name>` drops an earlier flag; the text of a set is
 * its flags sorted and joined with `, `. The `effective_check_flags` of a
 * project, category and component are merged this way.
 */

/** A parsed flag: its name and its values (a regular expression keeps its `r` prefix as written). */
interface Flag {
  name: string;
  values: readonly FlagValue[];
  /** Whether the flag was written with a `:` (a flag with an empty value differs from one without). */
  hasValues: boolean;
}

type FlagValue = { text: string; regex: boolean };

type ParsedFlags = { ok: true; flags: Flag[] } | { ok: false; reason: string };

/** Parses flags text; a syntax error gives its reason. */
export function parseFlags(text: string): ParsedFlags {
  let tokens: Token[];
  try {
    tokens = tokenize(text);
  } catch (error) {
    return { ok: false, reason: (error as Error).message };
  }
  return readFlags(tokens);
}

/** The flags of several texts merged, later ones winning, as Weblate's Flags(...).format() writes them. */
export function mergeFlags(texts: readonly string[]): string {
  const merged = new Map<string, Flag>();
  for (const text of texts) {
    const parsed = parseFlags(text);
    if (!parsed.ok) continue; // content flags are checked when read; a format's flags always parse
    for (const flag of parsed.flags) {
      if (flag.name === 'discard' && flag.values.length === 1) merged.delete(flag.values[0]!.text);
      else if (flag.hasValues || (flag.name !== 'fuzzy' && flag.name !== '#'))
        merged.set(flag.name, flag);
    }
  }
  return [...merged.values()]
    .map(formatFlag)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .join(', ');
}

/**
 * The flags a file format adds to every component of it (`check_flags` of
 * Weblate 2026.8's format classes, subclasses included; read from
 * weblate/formats/*.py). Other formats add none.
 */
export const FILE_FORMAT_FLAGS: Readonly<Record<string, string>> = {
  arb: 'icu-message-format',
  aresource: 'java-printf-format',
  asciidoc: 'safe-html, strict-same, asciidoc-text',
  'cmp-resource': 'java-printf-format',
  fluent:
    'fluent-source-syntax, fluent-target-syntax, fluent-parts, fluent-references, ' +
    'fluent-source-inner-html, fluent-target-inner-html, ignore-xml-tags, ignore-xml-invalid',
  formatjs: 'icu-message-format',
  gwt: 'auto-java-messageformat',
  html: 'safe-html, strict-same',
  i18next: 'i18next-interpolation',
  i18nextv4: 'i18next-interpolation',
  idml: 'strict-same',
  laravel: 'laravel-format',
  markdown: 'auto-safe-html, strict-same, md-text',
  mdx: 'auto-safe-html, strict-same, md-text, safe-mdx',
  'mi18n-lang': 'es-format',
  'moko-resource': 'java-printf-format',
  odf: 'strict-same',
  properties: 'auto-java-messageformat',
  resourcedictionary: 'c-sharp-format',
  strings: 'objc-format',
  stringsdict: 'objc-format',
};

// --- internal ---

type Token = { kind: ',' | ':' | 'word' | 'quoted' | 'regex'; text: string };

/** Weblate's flag name: no separator, quote or surrounding space (checks/parser.py flag_name). */
const NAME = /^[^,:"' \r\n\t]([^,:"']*[^,:"' \r\n\t])?/;
/** Characters that make Weblate quote a value when it writes it (SYNTAXCHARS, and a space). */
const NEEDS_QUOTES = /[ ,:"'\\]/;
/** The aliases Weblate reads a flag name as (FLAG_ALIASES). */
const ALIASES: Readonly<Record<string, string>> = { 'markdown-text': 'md-text' };

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const char = text[i]!;
    if (/\s/.test(char)) i++;
    else if (char === ',' || char === ':') {
      tokens.push({ kind: char, text: char });
      i++;
    } else if (char === 'r' && text[i + 1] === '"') i = readQuoted(text, i + 1, 'regex', tokens);
    else if (char === '"' || char === "'") i = readQuoted(text, i, 'quoted', tokens);
    else {
      const name = NAME.exec(text.slice(i));
      if (!name) throw new Error(`unexpected ${JSON.stringify(char)} at position ${i + 1}`);
      tokens.push({ kind: 'word', text: name[0] });
      i += name[0].length;
    }
  }
  return tokens;
}

/** What a backslash and the character after it stand for in a quoted value (`quote`: the quote itself). */
const ESCAPES: Readonly<Record<string, string>> = { quote: '', '\\': '\\', n: '\n', r: '\r' };

/** A quoted string from its opening quote; `\` escapes the quote and itself. Returns where reading goes on. */
function readQuoted(
  text: string,
  start: number,
  kind: 'quoted' | 'regex',
  tokens: Token[],
): number {
  const quote = text[start]!;
  let value = '';
  for (let i = start + 1; i < text.length; i++) {
    const char = text[i]!;
    const escaped =
      char === '\\' ? ESCAPES[text[i + 1] === quote ? 'quote' : (text[i + 1] ?? '')] : undefined;
    if (escaped !== undefined) {
      value += escaped === '' ? quote : escaped;
      i++;
    } else if (char === quote) {
      tokens.push({ kind, text: value });
      return i + 1;
    } else value += char;
  }
  throw new Error(`a quoted value from position ${start + 1} is not closed`);
}

/** Weblate's flag state machine over the tokens (checks/flags.py _parse_flags_text). */
function readFlags(tokens: Token[]): ParsedFlags {
  const flags: Flag[] = [];
  let current: { name: string; values: FlagValue[]; hasValues: boolean } | null = null;
  let expectValue = false;
  const finish = () => {
    if (current)
      flags.push(
        expectValue
          ? { ...current, values: [...current.values, { text: '', regex: false }] }
          : current,
      );
    current = null;
    expectValue = false;
  };
  for (const token of tokens) {
    if (token.kind === ',') finish();
    else if (token.kind === ':') {
      if (!current) return { ok: false, reason: 'a ":" before a flag name' };
      if (expectValue) current.values.push({ text: '', regex: false });
      current.hasValues = true;
      expectValue = true;
    } else if (!current) {
      if (token.kind !== 'word')
        return { ok: false, reason: `a quoted flag name ${JSON.stringify(token.text)}` };
      current = { name: ALIASES[token.text] ?? token.text, values: [], hasValues: false };
    } else if (expectValue) {
      current.values.push({ text: token.text, regex: token.kind === 'regex' });
      expectValue = false;
    } else return { ok: false, reason: `a "," missing before ${JSON.stringify(token.text)}` };
  }
  finish();
  return { ok: true, flags };
}

function formatFlag(flag: Flag): string {
  if (!flag.hasValues) return formatValue({ text: flag.name, regex: false });
  return [flag.name, ...flag.values.map(formatValue)].join(':');
}

function formatValue(value: FlagValue): string {
  if (!value.regex && !NEEDS_QUOTES.test(value.text)) return value.text;
  const escaped = value.text.replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
  return `${value.regex ? 'r' : ''}"${escaped}"`;
}
