// Placeholder until the admin app lands: proves that the bundle is served and runs.
import './styles.css';

const app = document.getElementById('app');
if (app) app.innerHTML = '<main class="placeholder"><h1>Quire admin</h1></main>';
