/** The command-line flags that override site.yaml, shared by build, check and the sidecar. */
import { checkBaseUrl } from '../content/base-url.ts';
import { UsageError } from '../errors.ts';
import { SITE_DEFAULTS } from '../model/defaults.ts';
import { isRelease, NEWEST_RELEASE, RELEASE_RANGE } from '../model/releases.ts';
import type { SettingsOverrides } from '../resolve/resolve.ts';
import type { OptionDef } from './command.ts';

export const SETTINGS_OPTIONS = {
  'base-url': {
    type: 'string',
    valueName: 'URL',
    description: 'base URL of the snapshot; the API is at URL/api/ (overrides site.yaml)',
  },
  'web-url': {
    type: 'string',
    valueName: 'URL',
    description: 'base of web links (web_url, translate_url; overrides site.yaml)',
  },
  'page-size': {
    type: 'string',
    valueName: 'N',
    description: 'items per list page, 1 to 1000 (overrides site.yaml; default 50)',
  },
  pagination: {
    type: 'string',
    valueName: 'path|query',
    description: 'how next/previous links read (overrides site.yaml; default path)',
  },
  'weblate-version': {
    type: 'string',
    valueName: `4.14…${NEWEST_RELEASE}`,
    description: `which Weblate's API the snapshot speaks (overrides site.yaml; default ${SITE_DEFAULTS.weblate_version})`,
  },
  pages: {
    type: 'string',
    valueName: 'on|off',
    description:
      'write the status site at the web paths (overrides site.yaml; default on when the web URL is the base URL)',
  },
  'png-widgets': {
    type: 'string',
    valueName: 'projects|all',
    description:
      "which widget folders hold the PNG widgets: projects' only, or also components', languages' and translations' (overrides site.yaml; default projects)",
  },
} as const satisfies Record<string, OptionDef>;

export function settingsOverrides(values: {
  'base-url'?: string | undefined;
  'web-url'?: string | undefined;
  'page-size'?: string | undefined;
  pagination?: string | undefined;
  'weblate-version'?: string | undefined;
  pages?: string | undefined;
  'png-widgets'?: string | undefined;
}): SettingsOverrides {
  const url = (flag: string, value: string | undefined, options: { api?: boolean } = {}) => {
    if (value === undefined) return undefined;
    const checked = checkBaseUrl(value, options);
    if (!checked.ok)
      throw new UsageError(
        `--${flag} ${checked.expected.replace(/^expected/, 'expects')} (got "${value}")`,
      );
    return checked.url;
  };
  const pageSizeText = values['page-size'];
  const pageSize = pageSizeText === undefined ? undefined : Number(pageSizeText);
  if (
    pageSize !== undefined &&
    !(Number.isInteger(pageSize) && pageSize >= 1 && pageSize <= 1000)
  ) {
    throw new UsageError(`--page-size expects an integer from 1 to 1000 (got "${pageSizeText}")`);
  }
  const pagination = values.pagination;
  if (pagination !== undefined && pagination !== 'path' && pagination !== 'query') {
    throw new UsageError(`--pagination expects "path" or "query" (got "${pagination}")`);
  }
  const version = values['weblate-version'];
  if (version !== undefined && !isRelease(version))
    throw new UsageError(`--weblate-version expects ${RELEASE_RANGE} (got "${version}")`);
  const pages = values.pages;
  if (pages !== undefined && pages !== 'on' && pages !== 'off')
    throw new UsageError(`--pages expects "on" or "off" (got "${pages}")`);
  const pngWidgets = values['png-widgets'];
  if (pngWidgets !== undefined && pngWidgets !== 'projects' && pngWidgets !== 'all')
    throw new UsageError(`--png-widgets expects "projects" or "all" (got "${pngWidgets}")`);
  return {
    baseUrl: url('base-url', values['base-url'], { api: true }),
    webUrl: url('web-url', values['web-url']),
    pageSize,
    pagination,
    weblateVersion: version,
    pages: pages === undefined ? undefined : pages === 'on',
    pngWidgets,
  };
}
