export function ErrorPage({ message }: { message: string }) {
  return (
    <section className="error-page">
      <h1>{message}</h1>
      <p>
        <a href="/">Go to the start page</a>
      </p>
    </section>
  );
}
