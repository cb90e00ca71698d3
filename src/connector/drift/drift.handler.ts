// The catalogue.drift handler: DriftService.run. A throw lets the queue retry (the job follows the shop's bulk query it
// recorded); on the last try the report is failed first, where users see it.
import { WorkerStopping, type JobContext, type JobHandler } from '../../jobs/job-runner.js';
import type { JOB } from '../../jobs/job-types.js';
import type { DriftService } from './drift.service.js';

export function driftHandler(drift: DriftService): JobHandler<typeof JOB.catalogueDrift> {
  return async (job: JobContext<typeof JOB.catalogueDrift>) => {
    try {
      await drift.run(job.data, job.signal);
    } catch (err) {
      if (job.finalAttempt && !(job.signal.reason instanceof WorkerStopping)) await drift.runFailed(job.data, err instanceof Error ? err.message : String(err));
      throw err;
    }
  };
}
