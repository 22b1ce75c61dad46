import decodeQR from "qr/decode.js";

/**
 * The JS QR decoder, for browsers without BarcodeDetector (Firefox, desktop Chrome on Linux and Windows):
 * loaded only when a camera scan starts there (decision 022). A video frame is drawn, scaled to at most
 * MAX_SIDE pixels a side (enough for a label held to the camera, and a frame decodes in a few ms), and
 * searched for one QR code.
 */
const MAX_SIDE = 720;
let canvas: HTMLCanvasElement | undefined;

export function readFrame(video: HTMLVideoElement): string | null {
  const { videoWidth: w, videoHeight: h } = video;
  if (!w || !h) return null;
  const scale = Math.min(1, MAX_SIDE / Math.max(w, h));
  const [width, height] = [Math.round(w * scale), Math.round(h * scale)];
  canvas ??= document.createElement("canvas");
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext("2d", { willReadFrequently: true });
  if (!ctx) return null;
  ctx.drawImage(video, 0, 0, width, height);
  const { data } = ctx.getImageData(0, 0, width, height);
  try {
    return decodeQR({ width, height, data }, { format: "RGBA" });
  } catch {
    // no code in this frame
    return null;
  }
}
