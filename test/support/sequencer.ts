/**
 * The order test files start in. With two workers, a long suite that starts last lengthens the
 * whole run, and a fresh clone has no record of earlier durations (vitest would start the larger
 * files first), so the slowest suites listed in suites.ts start first, in their order; the rest
 * follow in vitest's own order (by the durations of the last run when it has them).
 */
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { SLOWEST_SUITES } from './suites.ts';

export class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rest = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const at = SLOWEST_SUITES.indexOf(relative(this.ctx.config.root, file.moduleId));
      return at < 0 ? SLOWEST_SUITES.length : at;
    };
    // A stable sort: files of equal rank keep vitest's order.
    return rest.sort((a, b) => rank(a) - rank(b));
  }
}
