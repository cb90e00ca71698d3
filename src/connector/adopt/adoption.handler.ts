// The catalogue.adopt handler: AdoptionService.run. A throw lets the queue retry with back-off (the job resumes the
// shop's bulk query and the PIM import it recorded); on the last try the adoption is failed first, where users see it.
import { WorkerStopping, type JobContext, type JobHandler } from '../../jobs/job-runner.js';
import type { JOB } from '../../jobs/job-types.js';
import type { AdoptionService } from './adoption.service.js';

export function adoptionHandler(adoptions: AdoptionService): JobHandler<typeof JOB.catalogueAdopt> {
  return async (job: JobContext<typeof JOB.catalogueAdopt>) => {
    try {
      await adoptions.run(job.data, job.signal);
    } catch (err) {
      if (job.finalAttempt && !(job.signal.reason instanceof WorkerStopping))
        await adoptions.runFailed(job.data, err instanceof Error ? err.message : String(err));
      throw err;
    }
  };
}
