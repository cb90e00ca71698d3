// The workbench's services, built over their repositories.
import type { Db } from '../../db/client.js';
import type { HistoryRepository } from '../history/history.repository.js';
import { BatchRepository } from './batch.repository.js';
import { BatchService } from './batch.service.js';
import { BulkRepository } from './bulk.repository.js';
import { BulkService } from './bulk.service.js';
import { ViewRepository } from './view.repository.js';
import { ViewService } from './view.service.js';
import type { WorkbenchServices } from './workbench.routes.js';

export function createWorkbench(db: Db, history: HistoryRepository): WorkbenchServices {
  return {
    bulk: new BulkService(db, new BulkRepository(db), history),
    batch: new BatchService(db, new BatchRepository(db), history),
    views: new ViewService(new ViewRepository(db)),
  };
}
