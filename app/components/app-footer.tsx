import { Link } from "react-router";

export function AppFooter() {
  return (
    <footer className="app-footer">
      <nav aria-label="Help and legal">
        <ul>
          <li>
            <Link to="/help">Help</Link>
          </li>
          <li>
            <Link to="/tos">Terms of service</Link>
          </li>
          <li>
            <Link to="/contact">Contact</Link>
          </li>
          <li>
            <Link to="/support">Support</Link>
          </li>
        </ul>
      </nav>
      <p>© Paydesk. Payments in CNY; amounts shown with two decimals.</p>
    </footer>
  );
}
