/** Sign in: a plain form posted to /signin, so it works on any connection, before any script. */
export function SignIn({ next, email, error }: { next: string; email?: string; error?: string }) {
  return (
    <section className="signin">
      <form method="post" action="/signin" className="signin-card">
        <h1>Sign In</h1>
        {error && <p className="alert alert-error" role="alert">{error}</p>}
        <input type="hidden" name="next" value={next} />
        <label className="field">
          <span>Email</span>
          <input type="email" name="email" autoComplete="username" required defaultValue={email} autoFocus />
        </label>
        <label className="field">
          <span>Password</span>
          <input type="password" name="password" autoComplete="current-password" required />
        </label>
        <button type="submit" className="btn btn-primary">Sign In</button>
      </form>
    </section>
  );
}
