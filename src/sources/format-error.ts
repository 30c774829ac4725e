export class RegisterFormatError extends Error {
  name = "RegisterFormatError";
}
