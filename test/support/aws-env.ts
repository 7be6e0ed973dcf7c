/**
 * Set up before each test file: the AWS environment of a deploy under test (`TEST_AWS_ENV`: the
 * local S3 server's keys, no instance metadata, no user's AWS files), in the tests' own process,
 * for the SDK of a deploy or a bucket read in-process. Every file gets the same, so files that
 * share a worker (`isolate: false`) see no difference.
 */
import { TEST_AWS_ENV } from './s3-proxy.ts';

Object.assign(process.env, TEST_AWS_ENV);
// The children's environment names no profile (''); the SDK in this process is given none at all.
delete process.env.AWS_PROFILE;
