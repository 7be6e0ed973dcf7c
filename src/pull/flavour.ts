/**
 * Which Weblate's API an instance serves, told from bodies it sent: the API
 * root's keys, a language, a project, a statistics object and a translation's
 * share URL. Each is a marker that points at Weblate 4.x (the "4" flavour) or
 * at today's Weblate (5.x and later, mirrored as "2026.8"); a body the pull
 * has not seen, or one in neither form, says nothing. The markers must agree:
 * an instance some of whose bodies are 4.x's and others today's cannot be
 * mirrored into either flavour, and is refused. 4.x's 21 statistics counters
 * are also what Weblate 5.0 and 5.1 serve, so they point at 4.x only beside
 * nothing of today's (statisticsCountersOf tells those releases apart). Pure.
 */
import type { WeblateVersion } from '../model/defaults.ts';

/** Bodies as the instance served them (their keys in the order it wrote them); absent when not (yet) read. */
export interface FlavourEvidence {
  root: Readonly<Record<string, unknown>>;
  language?: unknown;
  project?: unknown;
  statistics?: unknown;
  translation?: unknown;
}

type Placement = { ok: true; version: WeblateVersion } | { ok: false; reason: string };

export function detectFlavour(evidence: FlavourEvidence): Placement {
  const verdicts = MARKERS.map((marker) => marker(evidence)).filter((verdict) => verdict !== null);
  // The root always says something; the other markers must say the same.
  const version = verdicts[0]!.version;
  if (verdicts.every((verdict) => verdict.version === version)) return { ok: true, version };
  const saying = (version: WeblateVersion) =>
    verdicts
      .filter((verdict) => verdict.version === version)
      .map((verdict) => verdict.says)
      .join(', ');
  return {
    ok: false,
    reason: `${saying('4')}, as in Weblate 4.x; but ${saying('2026.8')}, as in Weblate 5.x and later`,
  };
}

/**
 * The statistics layout a body shows: 21 counters with `total_chars` 11th (Weblate 4.x, 5.0 and
 * 5.1) or 33 with it third (5.2 and later); null for a body in neither form, or none.
 */
export function statisticsCountersOf(statistics: unknown): 21 | 33 | null {
  if (!isObject(statistics)) return null;
  const keys = Object.keys(statistics);
  const at = keys.indexOf('total_chars');
  if (at === 2 && keys.includes('fuzzy_chars')) return 33;
  if (at === 10 && !keys.includes('fuzzy_chars')) return 21;
  return null;
}

// --- internal ---

interface Verdict {
  version: WeblateVersion;
  says: string;
}

type Marker = (evidence: FlavourEvidence) => Verdict | null;

const CURRENT: WeblateVersion = '2026.8';

/** The API root lists categories from Weblate 5.0 on. */
const rootMarker: Marker = ({ root }) =>
  'categories' in root
    ? { version: CURRENT, says: 'the API root lists categories' }
    : { version: '4', says: 'the API root lists no categories' };

/** A language has an id from Weblate 5.0.1 on; 5.0 itself served none beside its categories. */
const languageMarker: Marker = ({ language, root }) => {
  if (!isObject(language)) return null;
  if ('id' in language) return { version: CURRENT, says: 'a language has an id' };
  return 'categories' in root ? null : { version: '4', says: 'a language has no id' };
};

/** A project links its categories from Weblate 5.0 on. */
const projectMarker: Marker = ({ project }) =>
  isObject(project)
    ? 'categories_url' in project
      ? { version: CURRENT, says: 'a project links its categories' }
      : { version: '4', says: 'a project has no categories_url' }
    : null;

/** Statistics of 33 counters point at Weblate 5.2 and later; 4.x's 21 are also 5.0's and 5.1's. */
const statisticsMarker: Marker = (evidence) => {
  const counters = statisticsCountersOf(evidence.statistics);
  if (counters === 33)
    return { version: CURRENT, says: 'statistics have 33 counters, total_chars third' };
  if (counters === 21 && !('categories' in evidence.root))
    return { version: '4', says: 'statistics have 21 counters, total_chars 11th' };
  return null;
};

/** A translation's share URL: `/engage/<p>/<l>/` in 4.x, `/engage/<p>/-/<l>/` from Weblate 5.0 on. */
const shareMarker: Marker = ({ translation }) => {
  const url = isObject(translation) ? translation.share_url : undefined;
  if (typeof url !== 'string') return null;
  const path = URL.parse(url)?.pathname ?? '';
  if (/\/engage\/[^/]+\/-\/[^/]+\/$/.test(path))
    return { version: CURRENT, says: 'share URLs read /engage/<project>/-/<language>/' };
  if (/\/engage\/[^/]+\/[^/]+\/$/.test(path))
    return { version: '4', says: 'share URLs read /engage/<project>/<language>/' };
  return null;
};

const MARKERS: readonly Marker[] = [
  rootMarker,
  languageMarker,
  projectMarker,
  statisticsMarker,
  shareMarker,
];

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
