import { describe, expect, it } from 'vitest';
import { formatDeployProgress } from '../../../src/cli/deploy-progress.ts';

describe('the deploy display', () => {
  it('counts uploads with their share, and deletes once there are any', () => {
    expect(formatDeployProgress({ uploaded: 1234, toUpload: 5000, deleted: 0, toDelete: 0 })).toBe(
      'Deploying: 1,234 / 5,000 files uploaded (24%)',
    );
    expect(formatDeployProgress({ uploaded: 8, toUpload: 8, deleted: 5, toDelete: 1005 })).toBe(
      'Deploying: 8 / 8 files uploaded (100%), 5 / 1,005 keys deleted',
    );
    expect(formatDeployProgress({ uploaded: 0, toUpload: 0, deleted: 0, toDelete: 3 })).toBe(
      'Deploying: 0 / 0 files uploaded, 0 / 3 keys deleted',
    );
  });
});
