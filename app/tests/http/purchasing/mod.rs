mod suggestions;
