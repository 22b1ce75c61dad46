/** Bad input: printed as one `error: ` line, exit code 1 (after `output`, lines that did succeed). */
export class CliError extends Error {
  constructor(message: string, readonly output: string[] = []) {
    super(message);
  }
}
