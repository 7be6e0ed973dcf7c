import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GroupStates, type GroupState } from '../../../src/tree/group-states.ts';
import { checkedLine } from '../../../src/tree/journal.ts';

type Line = [key: string, state: GroupState | 'removed'];
type Change = ['set', string, GroupState] | ['delete', string];

const lineText = ([key, state]: Line) =>
  checkedLine(`${state === 'removed' ? '-' : state === null ? '?' : state.toString(36)} ${key}`);

/** What the manifest reader did before the index: a Map, later lines winning. */
function asMap(lines: readonly Line[]): Map<string, GroupState> {
  const map = new Map<string, GroupState>();
  for (const [key, state] of lines) {
    if (state === 'removed') map.delete(key);
    else map.set(key, state);
  }
  return map;
}

const keys = fc.constantFrom(
  '/',
  '/api/',
  '/api/a/',
  '/api/b/',
  '/projects/é/',
  '/api/a/b/',
  '/widgets/x/-/y/',
  '/api/translations/p/c/de/',
);
const state = fc.oneof(fc.constant(null), fc.nat({ max: Number.MAX_SAFE_INTEGER }));
const line = fc.tuple(keys, fc.oneof(state, fc.constant('removed' as const))) as fc.Arbitrary<Line>;
const change = fc.oneof(
  fc.tuple(fc.constant('set' as const), keys, state),
  fc.tuple(fc.constant('delete' as const), keys),
) as fc.Arbitrary<Change>;

describe("group states read from a manifest's bytes", () => {
  it('answer as a Map of the same lines would, before and after changes', () => {
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 40 }),
        fc.array(change, { maxLength: 20 }),
        (lines, changes) => {
          const states = GroupStates.parse(Buffer.from(lines.map(lineText).join('')))!;
          const map = asMap(lines);
          expect(states.linesRead).toBe(lines.length);
          for (const c of changes) {
            if (c[0] === 'set') {
              states.set(c[1], c[2]);
              map.set(c[1], c[2]);
            } else {
              expect(states.delete(c[1])).toBe(map.delete(c[1]));
            }
          }
          expect(states.size).toBe(map.size);
          expect(new Map(states)).toEqual(map);
          expect(new Set(states.keys())).toEqual(new Set(map.keys()));
          for (const key of ['/', '/api/', '/api/a/', '/api/b/', '/projects/é/', '/nope/']) {
            expect(states.get(key)).toBe(map.get(key));
            expect(states.has(key)).toBe(map.has(key));
          }
        },
      ),
    );
  });

  it('starts where it is told (after the header) and refuses a line that is not a state and a key', () => {
    const text = `weblate-snapshot manifest 2\n${checkedLine('1z /api/')}`;
    expect([...GroupStates.parse(Buffer.from(text), text.indexOf('\n') + 1)!]).toEqual([
      ['/api/', 71],
    ]);
    for (const bad of ['1z', ' /api/', 'x! /api/', '1Z /api/', ''])
      expect(GroupStates.parse(Buffer.from(checkedLine(bad)))).toBeNull();
  });

  it('ignores a last line cut short of its newline: an append a crash cut short', () => {
    const whole = checkedLine('1 /a/');
    const torn = checkedLine('2 /b/').slice(0, -1);
    expect([...GroupStates.parse(Buffer.from(whole + torn))!]).toEqual([['/a/', 1]]);
  });

  it('finds every key of a large manifest (a table that grows and probes past collisions)', () => {
    const lines: Line[] = Array.from({ length: 20_000 }, (_, i) => [
      `/api/translations/p${i % 97}/c${i}/`,
      i,
    ]);
    const states = GroupStates.parse(Buffer.from(lines.map(lineText).join('')))!;
    expect(states.size).toBe(20_000);
    for (const [key, fingerprint] of lines) expect(states.get(key)).toBe(fingerprint);
    expect(states.get('/api/translations/p0/c1/')).toBeUndefined();
  });
});
