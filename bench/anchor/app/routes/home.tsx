export function meta() {
  return [
    { title: "Help — Anchor" },
    { name: "description", content: "How payments, transfers and tasks work, in a bare React Router app for the bench." },
  ];
}

// About as much text as a help page's first screen: a heading and a paragraph.
export default function Home() {
  return (
    <main>
      <h1>Help</h1>
      <p>
        Top up your wallet with WeChat Pay or a prepaid code, pay orders from it, send money to another person by their handle, and post
        paid tasks that others claim, do and submit for you to check. Every amount is shown in yuan, and every change to your balance
        appears in your statement with a receipt you can print.
      </p>
    </main>
  );
}
