// The catalogue.import handler: ImportService.run. A throw lets the queue retry (the job resumes after its checkpoint);
// on the last try the import is failed first and its file removed, so nobody waits on an import that cannot end.
import { WorkerStopping, type JobContext, type JobHandler } from '../../jobs/job-runner.js';
import type { JOB } from '../../jobs/job-types.js';
import type { ImportJob } from './import-job.js';

export function importHandler(imports: ImportJob): JobHandler<typeof JOB.catalogueImport> {
  return async (job: JobContext<typeof JOB.catalogueImport>) => {
    try {
      await imports.run(job.data.importId, job.signal);
    } catch (err) {
      if (job.finalAttempt && !(job.signal.reason instanceof WorkerStopping)) await imports.giveUp(job.data.importId);
      throw err;
    }
  };
}
