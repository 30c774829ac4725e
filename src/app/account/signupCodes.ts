import { sha256Hex } from "../../platform/crypto";

/** A sign-up code as stored: the hash of the challenge and the code (startSignup writes it, verifySignup compares it). */
export const codeHash = (challengeId: string, code: string) => sha256Hex(`${challengeId}:${code}`);
