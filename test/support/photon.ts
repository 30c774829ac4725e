import { PhotonImage } from "@cf-wasm/photon";

/** An image the image maker wrote, decoded again with Photon (Node lane): its size and RGBA pixels. */
export function decoded(bytes: Uint8Array): { width: number; height: number; px: Uint8Array } {
  const img = PhotonImage.new_from_byteslice(bytes);
  try {
    return { width: img.get_width(), height: img.get_height(), px: img.get_raw_pixels() };
  } finally {
    img.free();
  }
}
