import './styles.css';
import { render } from 'preact';
import { App } from './shell/App.js';
import { startLive } from './state/live.js';
import { startRouter } from './state/router.js';
import { startSession } from './state/session.js';

startRouter();
void startSession();
startLive();
render(<App />, document.getElementById('app')!);
