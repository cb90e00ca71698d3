// Where the project's own files are, from src/ (tsx) and dist/ (built) alike: both sit one level below the root.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const migrationsFolder = path.join(projectRoot, 'src', 'db', 'migrations');
