const { src, dest, parallel } = require('gulp');

// n8n reads node icons from beside the compiled code, and codex files from beside each node.
function copyIcons() {
	return src('icons/**/*.svg').pipe(dest('dist/icons'));
}

function copyCodex() {
	return src('nodes/**/*.node.json').pipe(dest('dist/nodes'));
}

exports['build:icons'] = parallel(copyIcons, copyCodex);
