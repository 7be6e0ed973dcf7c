/** Edits of content files: only the touched keys change; comments, order and styles stay. */
import { describe, expect, it } from 'vitest';
import { removeTranslation, setFields } from '../../../src/sidecar/edit.ts';

const LANGUAGE = `# Klingon, for the tests.
name: Klingon   # the English name
plural:
  number: 2
  formula: n != 1
aliases: [klingon, tlh]
population: 12
`;

describe('setFields', () => {
  it('changes a value in place, keeping its comment and every other line', () => {
    expect(setFields(LANGUAGE, { name: "Klingon (Qo'noS)", population: 13 })).toBe(
      LANGUAGE.replace(
        'name: Klingon   # the English name',
        "name: Klingon (Qo'noS) # the English name",
      ).replace('population: 12', 'population: 13'),
    );
  });

  it('adds a new key last and removes one', () => {
    expect(setFields(LANGUAGE, { direction: 'rtl', aliases: undefined })).toBe(
      '# Klingon, for the tests.\nname: Klingon   # the English name\nplural:\n  number: 2\n  formula: n != 1\npopulation: 12\ndirection: rtl\n'.replace(
        'Klingon   #',
        'Klingon #',
      ),
    );
  });

  it('quotes text that would read as another type', () => {
    expect(setFields('name: x\n', { name: '123' })).toBe('name: "123"\n');
    expect(setFields('name: x\n', { name: 'yes: no # not a comment' })).toBe(
      'name: "yes: no # not a comment"\n',
    );
  });

  it('starts a new file, or fills a file that held {} with a block map', () => {
    expect(setFields(null, { name: 'X', plural: { number: 2, formula: 'n > 1' } })).toBe(
      'name: X\nplural:\n  number: 2\n  formula: n > 1\n',
    );
    expect(setFields('# nothing yet\n{}\n', { name: 'X' })).toBe('# nothing yet\nname: X\n');
  });
});

describe('removeTranslation', () => {
  const COMPONENT = `name: App
translations:
  # Czech, done by the team.
  cs:
    translated: 4
  de: {translated: 2}   # German
  fr: {}
`;

  it('removes one entry and leaves the others and their comments', () => {
    expect(removeTranslation(COMPONENT, 'fr')).toBe(
      'name: App\ntranslations:\n  # Czech, done by the team.\n  cs:\n    translated: 4\n  de: {translated: 2} # German\n',
    );
    expect(removeTranslation(COMPONENT, 'de')).toContain(
      '  # Czech, done by the team.\n  cs:\n    translated: 4\n  fr: {}\n',
    );
  });

  it('says when there is no such entry', () => {
    expect(removeTranslation(COMPONENT, 'it')).toBeNull();
    expect(removeTranslation('name: App\n', 'cs')).toBeNull();
  });
});
