/**
 * One JPEG turned upright per worker (image_orient.ts does it, image_orient_check.ts is the parent); the
 * parent terminates the worker afterwards, which returns the decoded pixels' memory at once.
 *
 * JavaScript, and the module imported by a computed specifier, on purpose (decision 010): `deno test`
 * type-checks a worker's TypeScript and static graph each time one starts.
 */
const ORIENT = "./image_orient.ts";

self.onmessage = async (e) => {
  try {
    const { uprightJpeg } = await import(ORIENT);
    const jpeg = uprightJpeg(e.data.jpeg, e.data.orientation, e.data.maxSide);
    self.postMessage({ jpeg }, [jpeg.buffer]);
  } catch (err) {
    self.postMessage({ failed: err instanceof Error ? err.message : String(err) });
  }
};
