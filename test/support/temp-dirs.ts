/**
 * Set up before each test file: the folders tempDir() made are removed once the file's other
 * hooks have run (after hooks run in reverse order, and this one is registered first).
 */
import { afterAll } from 'vitest';
import { removeTempDirs } from '../helpers.ts';

afterAll(removeTempDirs);
