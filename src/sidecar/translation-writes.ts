/**
 * DELETE `/api/translations/<p>/<c>/<l>/`: the translation's entry
 * leaves its component file. The source translation, derived or listed, is
 * refused with Weblate's 403.
 */
import type { Session } from '../session/session.ts';
import { ERRORS } from '../api/answers.ts';
import { answerEdit, errorAnswer, noContent, notFound, type Answer } from './answer.ts';
import { componentFile, removeTranslation } from './edit.ts';
import { componentSegment } from '../api/urls.ts';

/** `component` is the component's segment of the path: its slug, or (2026.8) its path through categories (`docs%252Fguide`). */
export async function deleteTranslation(
  session: Session,
  project: string,
  component: string,
  language: string,
): Promise<Answer> {
  const outcome = await session.edit<Answer>(async ({ model, read }) => {
    const translation = model.translations.find(
      (t) =>
        t.language.code === language &&
        componentSegment(t.component) === component &&
        t.component.project.slug === project,
    );
    if (!translation) return { refuse: notFound() };
    if (translation.isSource) return { refuse: errorAnswer(ERRORS.cannotDeleteTranslation) };
    const path = componentFile(project, translation.component.slug);
    const text = removeTranslation((await read(path)) ?? '', language);
    if (text === null)
      throw new Error(`Internal error: no entry translations.${language} in ${path}`);
    return { changes: [{ path, text }], result: noContent() };
  });
  return answerEdit(outcome, session.contentDir, () => noContent());
}
