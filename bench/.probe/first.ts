console.error("first-eval", performance.now().toFixed(1));
