console.error("all-eval", performance.now().toFixed(1));
