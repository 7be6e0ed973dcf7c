/** What a deploy shows while it runs: a progress line on a terminal, and notices (waits) everywhere. */
import type { CommandIO } from './command.ts';
import { formatCount, statusDisplay, type StatusDisplay } from './progress.ts';
import type { DeployProgress } from '../deploy/deploy.ts';

export function formatDeployProgress(p: DeployProgress): string {
  const share = p.toUpload > 0 ? ` (${Math.floor((100 * p.uploaded) / p.toUpload)}%)` : '';
  const deleted =
    p.toDelete > 0 ? `, ${formatCount(p.deleted)} / ${formatCount(p.toDelete)} keys deleted` : '';
  return `Deploying: ${formatCount(p.uploaded)} / ${formatCount(p.toUpload)} files uploaded${share}${deleted}`;
}

export function deployDisplay(
  io: CommandIO,
  now: () => number = Date.now,
): StatusDisplay<DeployProgress> {
  return statusDisplay(io, formatDeployProgress, now);
}
