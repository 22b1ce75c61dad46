/**
 * One merge per worker (the conversation is in pdf_merge_job.ts); the parent terminates the worker
 * afterwards, which returns its whole heap at once (pdf-lib holds every parsed object in memory).
 *
 * JavaScript, and the job imported by a computed specifier, on purpose (decision 010): `deno test`
 * type-checks a worker's TypeScript and static graph each time one starts, seconds per merge.
 * pdf_merge_job.ts is type-checked with the app's own graph (pdf_merge.ts imports its types).
 */
const JOB = "./pdf_merge_job.ts";

self.onmessage = async (e) => {
  const { handle } = await import(JOB);
  const reply = await handle(e.data);
  self.postMessage(reply, reply.type === "done" ? [reply.pdf.buffer] : []);
};
