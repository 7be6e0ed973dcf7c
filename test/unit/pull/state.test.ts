import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openState, parseState, STATE_FILE } from '../../../src/pull/state.ts';
import { tempDir } from '../../helpers.ts';

const FROM = 'https://weblate.example.org/api/';
const header = `{"pull-state":1,"from":"${FROM}"}\n`;

describe('parseState', () => {
  it('reads every whole line after the header', () => {
    const text = `${header}{"url":"${FROM}","status":200,"body":{"projects":"x"}}\n`;
    const parsed = parseState(text);
    expect(parsed.from).toBe(FROM);
    expect([...parsed.answers.keys()]).toEqual([FROM]);
    expect(parsed.answers.get(FROM)!.body).toEqual({ projects: 'x' });
    expect(parsed.wholeBytes).toBe(Buffer.byteLength(text));
  });

  it('drops a last line cut short by a crash', () => {
    const whole = `${header}{"url":"a","status":200,"body":1}\n`;
    const parsed = parseState(`${whole}{"url":"b","sta`);
    expect([...parsed.answers.keys()]).toEqual(['a']);
    expect(parsed.wholeBytes).toBe(Buffer.byteLength(whole));
  });

  it('has no API for a file without a valid header', () => {
    expect(parseState('').from).toBeNull();
    expect(parseState('garbage\n').from).toBeNull();
  });
});

describe('openState', () => {
  it('keeps answers across runs and forgets them when removed', async () => {
    const dir = tempDir();
    const first = await openState(dir, FROM);
    expect(first.resumed).toBe(0);
    await first.keep(`${FROM}projects/`, {
      status: 200,
      body: { count: 0 },
      contentType: 'application/json',
    });
    await first.close();
    const second = await openState(dir, FROM);
    expect(second.resumed).toBe(1);
    expect(second.get(`${FROM}projects/`)?.body).toEqual({ count: 0 });
    await second.remove();
    expect(existsSync(join(dir, STATE_FILE))).toBe(false);
  });

  it('cuts off a torn last line before appending', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, STATE_FILE), `${header}{"url":"a","status":200,"body":1}\n{"url":"b"`);
    const state = await openState(dir, FROM);
    await state.keep('c', { status: 200, body: 2, contentType: 'application/json' });
    await state.close();
    expect([...parseState(readFileSync(join(dir, STATE_FILE), 'utf8')).answers.keys()]).toEqual([
      'a',
      'c',
    ]);
  });

  it('sets aside the state of another API, with a notice', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, STATE_FILE),
      `{"pull-state":1,"from":"https://other.example.org/api/"}\n{"url":"a","status":200,"body":1}\n`,
    );
    const state = await openState(dir, FROM);
    expect(state.resumed).toBe(0);
    expect(state.notice).toContain('https://other.example.org/api/');
    await state.close();
    expect(parseState(readFileSync(join(dir, STATE_FILE), 'utf8')).from).toBe(FROM);
  });
});
