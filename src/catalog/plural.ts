/**
 * Gettext plural formulas: parsing, evaluation with Python's semantics (as
 * Weblate compiles them), and the plural type a Weblate 4.x server assigns.
 */

type PluralFormula = (n: number) => number;

/**
 * The longest formula taken (Weblate's longest is under 500 characters). The
 * parser and the evaluation recurse once per nesting level or operator, so a
 * bounded length keeps them far from the end of the stack.
 */
export const FORMULA_MAX_LENGTH = 1000;

type ParsedFormula = { ok: true; evaluate: PluralFormula } | { ok: false; reason: string };

/**
 * Compiles a C-style gettext plural expression over `n`: `?:`, `||`, `&&`,
 * comparisons, `+ - * / %`, `!`, parentheses and integer literals. `/` and `%`
 * floor like Python's; a comparison is 1 or 0.
 */
export function parsePluralFormula(formula: string): ParsedFormula {
  if (formula.length > FORMULA_MAX_LENGTH)
    return { ok: false, reason: `longer than ${FORMULA_MAX_LENGTH} characters` };
  const text = formula.trim().replace(/;$/, '');
  try {
    const parser = new Parser(tokenize(text));
    const node = parser.parseExpression();
    parser.expectEnd();
    return { ok: true, evaluate: (n) => evaluate(node, n) };
  } catch (error) {
    return { ok: false, reason: (error as Error).message };
  }
}

/** The number of plural forms a formula can select, checked over n = 0…1000: is every value in 0…number-1? */
export function formulaStaysWithin(evaluate: PluralFormula, number: number): boolean {
  for (let n = 0; n <= 1000; n++) {
    const form = evaluate(n);
    if (!Number.isInteger(form) || form < 0 || form >= number) return false;
  }
  return true;
}

/**
 * The plural type Weblate stores for a formula: `0` is "none", then an exact
 * look-up in the known formulas, then Arabic (3) for base code `ar`, then a
 * formula that behaves the same for n = -10…199 (and, as Weblate 2026.8
 * compares them, `powers` of ten: 10³ to 10⁷), else 666 (unknown). The table
 * and the powers decide the generation: the 4.x table without powers, or
 * today's with them.
 */
export function classifyPlural(
  formula: string,
  code: string,
  knownFormulas: readonly (readonly [string, number])[],
  powers = false,
): number {
  const stripped = formula.trim().replace(/;$/, '');
  if (stripped === '0') return 0;
  const key = stripped.replace(/ /g, '');
  for (const [known, type] of knownFormulas) if (known === key) return type;
  if (baseCode(code) === 'ar') return 3;
  const parsed = parsePluralFormula(stripped);
  if (!parsed.ok) return 666;
  const signature = behaviour(parsed.evaluate, powers);
  for (const [known, type] of knownFormulas) {
    const other = parsePluralFormula(known);
    if (other.ok && behaviour(other.evaluate, powers) === signature) return type;
  }
  return 666;
}

/** The code before the first `_` or `-`: `pt` for `pt_BR`, `sr` for `sr-Latn`. */
export function baseCode(code: string): string {
  return code.replace(/_/g, '-').split('-')[0]!;
}

// --- internal ---

type Node =
  | { kind: 'n' }
  | { kind: 'number'; value: number }
  | { kind: 'not'; operand: Node }
  | { kind: 'negate'; operand: Node }
  | { kind: 'binary'; operator: string; left: Node; right: Node }
  | { kind: 'conditional'; test: Node; then: Node; otherwise: Node };

const OPERATORS = [
  '||',
  '&&',
  '==',
  '!=',
  '<=',
  '>=',
  '<',
  '>',
  '+',
  '-',
  '*',
  '/',
  '%',
  '!',
  '?',
  ':',
  '(',
  ')',
];

function tokenize(text: string): string[] {
  const tokens: string[] = [];
  let i = 0;
  while (i < text.length) {
    const char = text[i]!;
    if (/\s/.test(char)) {
      i++;
      continue;
    }
    const digits = /^\d+/.exec(text.slice(i));
    if (digits) {
      tokens.push(digits[0]);
      i += digits[0].length;
      continue;
    }
    if (char === 'n') {
      tokens.push('n');
      i++;
      continue;
    }
    const operator = OPERATORS.find((op) => text.startsWith(op, i));
    if (!operator) throw new Error(`unexpected "${char}" at position ${i + 1}`);
    tokens.push(operator);
    i += operator.length;
  }
  if (tokens.length === 0) throw new Error('the formula is empty');
  return tokens;
}

const BINARY_LEVELS: readonly (readonly string[])[] = [
  ['||'],
  ['&&'],
  ['==', '!='],
  ['<', '>', '<=', '>='],
  ['+', '-'],
  ['*', '/', '%'],
];

class Parser {
  private position = 0;
  constructor(private readonly tokens: string[]) {}

  parseExpression(): Node {
    const test = this.parseBinary(0);
    if (this.peek() !== '?') return test;
    this.position++;
    const then = this.parseExpression();
    this.expect(':');
    const otherwise = this.parseExpression();
    return { kind: 'conditional', test, then, otherwise };
  }

  expectEnd(): void {
    if (this.position < this.tokens.length)
      throw new Error(`unexpected "${this.tokens[this.position]}"`);
  }

  private parseBinary(level: number): Node {
    if (level === BINARY_LEVELS.length) return this.parseUnary();
    let left = this.parseBinary(level + 1);
    while (BINARY_LEVELS[level]!.includes(this.peek() ?? '')) {
      const operator = this.tokens[this.position++]!;
      left = { kind: 'binary', operator, left, right: this.parseBinary(level + 1) };
    }
    return left;
  }

  private parseUnary(): Node {
    const token = this.tokens[this.position++];
    if (token === undefined) throw new Error('the formula ends too early');
    if (token === '!') return { kind: 'not', operand: this.parseUnary() };
    if (token === '-') return { kind: 'negate', operand: this.parseUnary() };
    if (token === 'n') return { kind: 'n' };
    if (/^\d+$/.test(token)) return { kind: 'number', value: Number(token) };
    if (token === '(') {
      const inner = this.parseExpression();
      this.expect(')');
      return inner;
    }
    throw new Error(`unexpected "${token}"`);
  }

  private peek(): string | undefined {
    return this.tokens[this.position];
  }

  private expect(token: string): void {
    if (this.tokens[this.position] !== token) throw new Error(`expected "${token}"`);
    this.position++;
  }
}

function evaluate(node: Node, n: number): number {
  switch (node.kind) {
    case 'n':
      return n;
    case 'number':
      return node.value;
    case 'not':
      return evaluate(node.operand, n) ? 0 : 1;
    case 'negate':
      return -evaluate(node.operand, n);
    case 'conditional':
      return evaluate(node.test, n) ? evaluate(node.then, n) : evaluate(node.otherwise, n);
    case 'binary':
      return applyBinary(node.operator, evaluate(node.left, n), () => evaluate(node.right, n));
  }
}

function applyBinary(operator: string, a: number, right: () => number): number {
  if (operator === '||') return a ? 1 : right() ? 1 : 0;
  if (operator === '&&') return a ? (right() ? 1 : 0) : 0;
  const b = right();
  switch (operator) {
    case '==':
      return a === b ? 1 : 0;
    case '!=':
      return a !== b ? 1 : 0;
    case '<':
      return a < b ? 1 : 0;
    case '>':
      return a > b ? 1 : 0;
    case '<=':
      return a <= b ? 1 : 0;
    case '>=':
      return a >= b ? 1 : 0;
    case '+':
      return a + b;
    case '-':
      return a - b;
    case '*':
      return a * b;
    case '/':
      return b === 0 ? NaN : Math.floor(a / b);
    case '%':
      return b === 0 ? NaN : a - b * Math.floor(a / b);
    default:
      throw new Error(`unknown operator ${operator}`);
  }
}

function behaviour(evaluate: PluralFormula, powers: boolean): string {
  const values: number[] = [];
  for (let n = -10; n < 200; n++) values.push(evaluate(n));
  if (powers) for (const n of [1e3, 1e4, 1e5, 1e6, 1e7]) values.push(evaluate(n));
  return values.join(',');
}
