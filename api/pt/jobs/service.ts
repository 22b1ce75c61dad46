// The jobs service, one verb per file under service/.
export { downloadJobs, everyJob, getJob, JOB_COLUMNS, listJobs } from "./service/list_jobs.ts";
export { type SavedJob, saveJob } from "./service/save_job.ts";
export { deleteJob } from "./service/delete_job.ts";
export { jobReport } from "./service/job_report.ts";
